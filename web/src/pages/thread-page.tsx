import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { AgentRun, Thread, ThreadMessage } from '../api/schema';
import { readSse } from '../api/sse';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { formatJson, formatTime } from '../format';
import { href } from '../router';

type Multitask = 'enqueue' | 'reject' | 'interrupt' | 'rollback';

/** What `multitask` did, in words. */
function multitaskNote({ strategy, runIds }: NonNullable<AgentRun['multitask']>): string {
  const turns = runIds.length === 1 ? 'the turn that was going' : `${runIds.length} turns that were open`;
  return strategy === 'interrupt'
    ? `This message interrupted ${turns}: what it had said is kept, marked interrupted.`
    : `This message rolled back ${turns}: nothing of it is kept.`;
}

/** A thread as a conversation: its messages, a box for the next task, and the answer as the model writes it. */
export function ThreadPage({ threadId }: { threadId: string }) {
  const [thread, setThread] = useState<Thread | null>(null);
  const [messages, setMessages] = useState<ThreadMessage[] | null>(null);
  const [task, setTask] = useState('');
  const [multitask, setMultitask] = useState<Multitask>('enqueue');
  const [did, setDid] = useState<AgentRun['multitask']>(null);
  const [live, setLive] = useState<{ runId: string; agentId: string; text: string; status: string } | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [working, setWorking] = useState<unknown>(undefined);
  const path = { params: { path: { threadId } } };
  const workingPath = { params: { path: { namespace: `threads/${threadId}`, key: 'working-memory' } } };

  async function load() {
    try {
      setThread(unwrap(await api.GET('/v1/threads/{threadId}', path)));
      const page = unwrap(
        await api.GET('/v1/threads/{threadId}/messages', { params: { path: { threadId }, query: { limit: 200 } } }),
      );
      setMessages(page.messages);
      const document = await api.GET('/v1/memory/{namespace}/{key}', workingPath);
      setWorking(document.response.ok ? document.data?.value : undefined);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }
  useEffect(() => void load(), [threadId]);

  async function send(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const run = unwrap(await api.POST('/v1/threads/{threadId}/runs', { ...path, body: { task, multitask } }));
      setTask('');
      setDid(run.multitask);
      setLive({ runId: run.id, agentId: run.agentId, text: '', status: run.status });
      const url = `/v1/agents/${encodeURIComponent(run.agentId)}/runs/${encodeURIComponent(run.id)}/stream`;
      await readSse(url, new AbortController().signal, ({ event: name, data }) => {
        const payload = JSON.parse(data);
        if (name === 'delta') setLive((old) => old && { ...old, text: old.text + payload.text });
        else if (name === 'status') setLive((old) => old && { ...old, status: payload.status });
      });
      // The exchange is added to the thread once the run has succeeded.
      for (let i = 0; i < 20; i++) {
        const latest = unwrap(await api.GET('/v1/threads/{threadId}', path));
        if (latest.status === 'idle') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The conversation is read before the live answer goes, so the answer never leaves the page for a moment.
      await load();
      setLive((old) => (old && ['succeeded'].includes(old.status) ? null : old));
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <main>
      {thread && (
        <p>
          <a href={href('agents', thread.agentId)}>← Agent</a>
        </p>
      )}
      <div class="page-head">
        <h1>Thread</h1>
        {thread && (
          <span role="status" data-testid="thread-status">
            <StatusBadge status={thread.status} />
          </span>
        )}
      </div>
      <ProblemView error={error} />
      {thread && (
        <dl class="facts">
          <dt>Messages</dt>
          <dd>{thread.messageCount}</dd>
          {thread.summary && (
            <>
              <dt>Summary of earlier messages</dt>
              <dd data-testid="thread-summary" class="pre">
                {thread.summary}
              </dd>
            </>
          )}
          <dt>Started</dt>
          <dd>{formatTime(thread.createdAt)}</dd>
          <dt>History</dt>
          <dd>
            <a href={href('history', `thread-${thread.id}`)}>Event history</a>
          </dd>
        </dl>
      )}
      {working !== undefined && (
        <section data-testid="working-memory">
          <h2>Working memory</h2>
          <pre>{formatJson(working)}</pre>
          <a href={href('memory', `threads/${threadId}`, 'working-memory')}>Its versions</a>
        </section>
      )}
      <h2>Conversation</h2>
      {messages === null ? (
        <p class="muted">Loading…</p>
      ) : (
        <ol class="conversation" data-testid="conversation">
          {messages.length === 0 && !live && <li class="muted">No messages yet.</li>}
          {messages.map((message, i) => (
            <li key={i} class={`message message-${message.role}`}>
              <strong>{message.role === 'tool' ? 'Tool result' : message.role === 'user' ? 'You' : 'Agent'}</strong>
              {message.toolCalls?.map((call) => (
                <pre key={call.id}>
                  {call.tool} {formatJson(call.input)}
                </pre>
              ))}
              {message.content && <p class="pre">{message.content}</p>}
              {message.interrupted && (
                <p class="muted" data-testid="interrupted">
                  Interrupted by the next message.
                </p>
              )}
            </li>
          ))}
          {live && (
            <li class="message message-assistant" data-testid="live-answer">
              <strong>Agent</strong> <StatusBadge status={live.status} />
              <p class="pre" aria-live="polite">
                {live.text}
              </p>
              {live.status === 'waiting' && (
                <a href={href('agents', live.agentId, 'runs', live.runId)}>A tool call waits for your approval</a>
              )}
            </li>
          )}
        </ol>
      )}
      {did && (
        <p role="status" data-testid="multitask-note">
          {multitaskNote(did)}
        </p>
      )}
      {thread && !thread.archivedAt && (
        <form onSubmit={send} class="card" noValidate>
          <Field id="thread-task" label="Next task" path="task" error={error}>
            {(describedBy, invalid) => (
              <textarea
                id="thread-task"
                rows={3}
                value={task}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onInput={(e) => setTask((e.target as HTMLTextAreaElement).value)}
              />
            )}
          </Field>
          <Field
            id="thread-multitask"
            label="If a turn is still going"
            path="multitask"
            error={error}
            hint="What this message does with a turn of the thread that has not ended."
          >
            {(describedBy, invalid) => (
              <select
                id="thread-multitask"
                value={multitask}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onChange={(e) => setMultitask(e.currentTarget.value as Multitask)}
              >
                <option value="enqueue">enqueue: answer it after that turn</option>
                <option value="reject">reject: refuse this message</option>
                <option value="interrupt">interrupt: stop that turn, keep what it said</option>
                <option value="rollback">rollback: stop that turn, keep nothing of it</option>
              </select>
            )}
          </Field>
          <button type="submit">Send</button>
        </form>
      )}
    </main>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Thread, ThreadMessage } from '../api/schema';
import { readSse } from '../api/sse';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { formatJson, formatTime } from '../format';
import { href } from '../router';

/** A thread as a conversation: its messages, a box for the next task, and the answer as the model writes it. */
export function ThreadPage({ threadId }: { threadId: string }) {
  const [thread, setThread] = useState<Thread | null>(null);
  const [messages, setMessages] = useState<ThreadMessage[] | null>(null);
  const [task, setTask] = useState('');
  const [live, setLive] = useState<{ runId: string; agentId: string; text: string; status: string } | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const path = { params: { path: { threadId } } };

  async function load() {
    try {
      setThread(unwrap(await api.GET('/v1/threads/{threadId}', path)));
      const page = unwrap(
        await api.GET('/v1/threads/{threadId}/messages', { params: { path: { threadId }, query: { limit: 200 } } }),
      );
      setMessages(page.messages);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }
  useEffect(() => void load(), [threadId]);

  async function send(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const run = unwrap(await api.POST('/v1/threads/{threadId}/runs', { ...path, body: { task } }));
      setTask('');
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
          <dt>Started</dt>
          <dd>{formatTime(thread.createdAt)}</dd>
          <dt>History</dt>
          <dd>
            <a href={href('history', `thread-${thread.id}`)}>Event history</a>
          </dd>
        </dl>
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
          <button type="submit">Send</button>
        </form>
      )}
    </main>
  );
}

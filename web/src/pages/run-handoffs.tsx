import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import type { AgentRun } from '../api/schema';
import { formatTime } from '../format';
import { HANDOFF_INPUT_LABELS } from '../forms/handoffs-draft';
import { href } from '../router';

/**
 * The names of the agents a run names by id (the one it began with, the one that answered), from its handoffs when
 * they tell, else read from each agent; an agent that cannot be read is shown by its id.
 */
function useAgentNames(run: AgentRun): Record<string, string> {
  const known: Record<string, string> = {};
  for (const handoff of run.handoffs) {
    known[handoff.from] = handoff.fromName;
    known[handoff.to] = handoff.toName;
  }
  const [read, setRead] = useState<Record<string, string>>({});
  const wanted = [run.answeredBy, run.startAgentId].filter((id): id is string => !!id && !(id in known));
  useEffect(() => {
    for (const agentId of wanted) {
      if (agentId in read) continue;
      api.GET('/v1/agents/{agentId}', { params: { path: { agentId } } }).then(
        (result) => setRead((old) => ({ ...old, [agentId]: unwrap(result).name })),
        () => setRead((old) => ({ ...old, [agentId]: agentId })),
      );
    }
  }, [wanted.join(',')]);
  return { ...read, ...known };
}

function AgentLink({ id, name }: { id: string; name: string | undefined }) {
  return <a href={href('agents', id)}>{name ?? id}</a>;
}

/** "billing → refunds": one handoff, each agent a link to its page. */
export function HandoffLine({ handoff }: { handoff: AgentRun['handoffs'][number] }) {
  return (
    <>
      <AgentLink id={handoff.from} name={handoff.fromName} /> → <AgentLink id={handoff.to} name={handoff.toName} />
    </>
  );
}

/**
 * For the run's facts: the agent a thread's turn began with when not the run's own, each time the conversation was
 * handed to another agent (from → to, what it was sent, when), and the agent whose answer is the output once it
 * differs from the run's agent or a handoff was made.
 */
export function RunHandoffFacts({ run }: { run: AgentRun }) {
  const names = useAgentNames(run);
  const beganElsewhere = run.startAgentId !== null && run.startAgentId !== run.agentId;
  const answeredElsewhere = run.answeredBy !== null && (run.handoffs.length > 0 || run.answeredBy !== run.agentId);
  return (
    <>
      {beganElsewhere && (
        <>
          <dt>Began with</dt>
          <dd data-testid="run-start-agent">
            <AgentLink id={run.startAgentId!} name={names[run.startAgentId!]} />
          </dd>
        </>
      )}
      {run.handoffs.length > 0 && (
        <>
          <dt>Handoffs</dt>
          <dd data-testid="run-handoffs">
            <ol class="run-handoffs">
              {run.handoffs.map((handoff, i) => (
                <li key={i}>
                  <HandoffLine handoff={handoff} />{' '}
                  <span class="muted">
                    sent the {HANDOFF_INPUT_LABELS[handoff.input]},{' '}
                    <time dateTime={handoff.at}>{formatTime(handoff.at)}</time>
                  </span>
                </li>
              ))}
            </ol>
          </dd>
        </>
      )}
      {answeredElsewhere && (
        <>
          <dt>Answer</dt>
          <dd data-testid="run-answered-by">
            answered by <AgentLink id={run.answeredBy!} name={names[run.answeredBy!]} />
          </dd>
        </>
      )}
    </>
  );
}

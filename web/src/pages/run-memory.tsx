import type { components } from '../api/schema';
import { href } from '../router';

type AgentRun = components['schemas']['AgentRunSchema'];

/** An item a run wrote, as its `remember` or `update_working_memory` tool answered. */
interface Written {
  namespace: string;
  key: string;
  version: number;
}

/** The items the run's memory tools wrote, in the order it wrote them (a call that failed wrote nothing). */
function writtenBy(run: AgentRun): Written[] {
  return run.toolCalls.flatMap((call) => {
    const output = call.output as Partial<Written> | undefined;
    const writes = call.tool === 'memory:remember' || call.tool === 'memory:update_working_memory';
    if (!writes || !output || typeof output.namespace !== 'string' || typeof output.key !== 'string') return [];
    return [{ namespace: output.namespace, key: output.key, version: Number(output.version) }];
  });
}

function ItemLinks({ items }: { items: Written[] }) {
  return (
    <>
      {items.map((item, i) => (
        <span key={`${item.namespace}/${item.key}/${item.version}`}>
          {i > 0 && ', '}
          <a href={href('memory', item.namespace, item.key)}>
            {item.namespace}/{item.key}
          </a>{' '}
          (version {item.version})
        </span>
      ))}
    </>
  );
}

/** What a run was given from memory before it began, and what it wrote there, each item linked to its page. */
export function RunMemoryFacts({ run }: { run: AgentRun }) {
  const written = writtenBy(run);
  return (
    <>
      {run.recalled && (
        <>
          <dt>Recalled</dt>
          <dd data-testid="run-recalled">
            {run.recalled.length === 0 ? 'nothing matched its task' : <ItemLinks items={run.recalled} />}
          </dd>
        </>
      )}
      {written.length > 0 && (
        <>
          <dt>Remembered</dt>
          <dd data-testid="run-remembered">
            <ItemLinks items={written} />
          </dd>
        </>
      )}
    </>
  );
}

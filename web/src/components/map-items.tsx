import type { WorkflowRun } from '../api/schema';
import { formatJson } from '../format';
import { href } from '../router';
import { StatusBadge } from './status-badge';

type MapItem = NonNullable<WorkflowRun['steps'][number]['items']>[number];

/** How far a map step's items have come, in words: "12 of 50 items ended · 5 running · 1 failed". */
export function mapProgress(items: MapItem[]): string {
  const count = (status: string) => items.filter((item) => item.status === status).length;
  const ended = items.filter((item) => item.status !== 'pending' && item.status !== 'running').length;
  const parts = [`${ended} of ${items.length} items ended`];
  if (count('running')) parts.push(`${count('running')} running`);
  if (count('failed')) parts.push(`${count('failed')} failed`);
  return parts.join(' · ');
}

/** A map step's items: their progress, and each item's status, agent run and answer, in the order of the list. */
export function MapItems({ items }: { items: MapItem[] }) {
  return (
    <details class="map-items">
      <summary data-testid="map-progress">{mapProgress(items)}</summary>
      <ol start={0}>
        {items.map((item) => (
          <li key={item.index} data-testid="map-item">
            <span class="muted">#{item.index}</span> <StatusBadge status={item.status} />{' '}
            {item.agentRunId && <a href={href('agent-runs', item.agentRunId)}>agent run</a>}{' '}
            {item.error ? (
              <span class="field-error">
                {item.error.code}: {item.error.message}
              </span>
            ) : (
              <span>{item.outputObject !== undefined ? formatJson(item.outputObject) : (item.output ?? '')}</span>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}

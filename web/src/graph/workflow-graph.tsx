import { useId } from 'preact/hooks';
import { NODE_HEIGHT, NODE_WIDTH } from './node-size';
import { useLayout } from './use-layout';
import './graph.css';

/** A step as the graph draws it. */
export interface GraphStep {
  id: string;
  /** The ids of the steps it needs: an edge from each into it. */
  needs: string[];
  /** What does the step: an agent's name, or "approval". */
  title: string;
  /** On a run: the step's status, and a short line such as "2 attempts · 1.4 s". */
  status?: string;
  detail?: string;
}

interface WorkflowGraphProps {
  steps: GraphStep[];
  /** The figure's caption. */
  label: string;
  /** Called with a step's id when its node, or its button in the list, is chosen. */
  onSelect?: (stepId: string) => void;
}

/**
 * A workflow's steps as a directed graph, left to right: a node per step, an edge per need. The drawing is for the eye
 * (hidden from screen readers, and it pans sideways when wider than the page); the list under it says the same for
 * keyboards and screen readers, and shows itself when one of its buttons has focus.
 */
export function WorkflowGraph({ steps, label, onSelect }: WorkflowGraphProps) {
  const placed = useLayout(steps);
  const arrow = `arrow-${useId()}`;
  const byId = new Map(steps.map((step) => [step.id, step]));
  return (
    <figure class="workflow-graph">
      <figcaption>{label}</figcaption>
      <div class="graph-pan" data-pans tabIndex={0} role="group" aria-label={`${label}, drawn`}>
        {placed && (
          <svg
            data-testid="workflow-graph"
            aria-hidden="true"
            width={placed.width}
            height={placed.height}
            viewBox={`0 0 ${placed.width} ${placed.height}`}
          >
            <defs>
              <marker id={arrow} viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto">
                <path d="M0,0 L10,5 L0,10 z" class="graph-arrow" />
              </marker>
            </defs>
            {placed.edges.map((edge) => (
              <path
                key={`${edge.from}->${edge.to}`}
                class="graph-edge"
                data-edge={`${edge.from}->${edge.to}`}
                d={edge.path}
                marker-end={`url(#${arrow})`}
              />
            ))}
            {placed.nodes.map((node) => {
              const step = byId.get(node.id)!;
              return (
                <g
                  key={node.id}
                  class={`graph-node node-${step.status ?? 'plain'}${onSelect ? ' selectable' : ''}`}
                  data-node-id={node.id}
                  data-status={step.status}
                  transform={`translate(${node.x},${node.y})`}
                  onClick={onSelect && (() => onSelect(node.id))}
                >
                  <title>{describe(step)}</title>
                  <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx="6" />
                  <text x="10" y="20" class="node-id">
                    {clip(step.id, 22)}
                  </text>
                  <text x="10" y="38">
                    {clip(step.title, 24)}
                  </text>
                  {step.status && (
                    <text x="10" y="56" class="node-status">
                      {clip([step.status, step.detail].filter(Boolean).join(' · '), 26)}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
        )}
      </div>
      <ol class="graph-list visually-hidden">
        {steps.map((step) => (
          <li key={step.id}>
            {describe(step)}
            {onSelect && (
              <button type="button" class="small secondary" onClick={() => onSelect(step.id)}>
                Open step {step.id}
              </button>
            )}
          </li>
        ))}
      </ol>
    </figure>
  );
}

/** A step in words: its id, what does it, what it waits for, and on a run how it went. */
function describe(step: GraphStep): string {
  const after = step.needs.length ? `after ${step.needs.join(', ')}` : 'starts at once';
  const how = step.status ? `; ${[step.status, step.detail].filter(Boolean).join(', ')}` : '';
  return `Step ${step.id}: ${step.title}, ${after}${how}`;
}

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

import { useMemo } from 'preact/hooks';
import type { Workflow } from '../api/schema';
import { formatJson } from '../format';
import { needsOf, stepIdOf } from '../../../src/shared/step-graph';
import { WorkflowGraph } from '../graph/workflow-graph';
import { stepTitle, waitingText } from '../components/step-title';

type Step = Workflow['steps'][number];

/** A workflow's steps: the graph they make, then each step with every field it was given. */
export function WorkflowStepsView({ steps }: { steps: Step[] }) {
  const ids = steps.map((step, i) => stepIdOf(step, i));
  const nodes = useMemo(
    () =>
      steps.map((step, i) => ({
        id: ids[i],
        needs: needsOf(steps, i).map((at) => ids[at]),
        title: stepTitle(step),
      })),
    [steps],
  );
  function select(stepId: string) {
    const item = document.getElementById(`def-step-${stepId}`);
    item?.scrollIntoView({ block: 'nearest' });
    item?.focus({ preventScroll: true });
  }
  return (
    <>
      <WorkflowGraph steps={nodes} label="The workflow's steps as a graph" onSelect={select} />
      <ol class="steps" start={0}>
        {steps.map((step, i) => (
          <li key={ids[i]} id={`def-step-${ids[i]}`} tabIndex={-1} data-testid="workflow-step">
            <strong>{ids[i]}</strong>
            {step.agent !== undefined ? (
              <>
                {' '}
                — agent <strong>{step.agent}</strong>: {step.action}
              </>
            ) : step.approval !== undefined ? (
              <> — a person's approval: {step.approval}</>
            ) : (
              <> — {waitingText(step)}</>
            )}
            <StepFacts step={step} needs={nodes[i].needs} />
          </li>
        ))}
      </ol>
    </>
  );
}

/** The rest of a step's fields, each only when set. */
function StepFacts({ step, needs }: { step: Step; needs: string[] }) {
  const facts: [string, string][] = [];
  if (needs.length) facts.push(['needs', needs.join(', ')]);
  if (step.map) {
    facts.push(['per item of', step.map.over]);
    facts.push(['items at once', String(step.map.concurrency ?? 1)]);
    facts.push(['a failed item', step.onItemError === 'skip' ? 'is skipped (null in its place)' : 'fails the step']);
  }
  if (step.when !== undefined) facts.push(['runs when', formatJson(step.when)]);
  if (step.input !== undefined) facts.push(['child input', formatJson(step.input)]);
  if (step.repeat) facts.push(['repeats until', `${formatJson(step.repeat.until)}, at most ${step.repeat.max} times`]);
  if (step.context) facts.push(['sends', step.context === 'all' ? 'input and earlier outputs' : step.context]);
  if (step.retry) {
    const { attempts, backoffMs, maxBackoffMs } = step.retry;
    const cap = maxBackoffMs === undefined ? '' : `, at most ${maxBackoffMs} ms`;
    facts.push(['retry', `${attempts} attempts, waiting ${backoffMs} ms first${cap}`]);
  }
  const limit = step.timeoutMs ?? step.wait?.timeoutMs;
  if (limit !== undefined) facts.push(['time limit', `${limit} ms`]);
  if (!facts.length) return null;
  return (
    <ul class="step-facts muted">
      {facts.map(([name, value]) => (
        <li key={name}>
          {name}: <code>{value}</code>
        </li>
      ))}
    </ul>
  );
}

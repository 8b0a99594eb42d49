import { useMemo } from 'preact/hooks';
import { needsOf, stepIdOf } from '../../../src/shared/step-graph';
import { WorkflowGraph } from '../graph/workflow-graph';
import { graphProblems } from './workflow-body';
import { StepDraft, graphSteps } from './workflow-draft';

/**
 * The graph the steps make, drawn as they are typed, with what would stop the service from taking it (a cycle, an
 * id used twice, needs that name no step) said at once, before the form is sent.
 */
export function StepsPreview({ steps }: { steps: StepDraft[] }) {
  const { nodes, problems } = useMemo(() => {
    const shape = graphSteps(steps);
    const problems = graphProblems(steps);
    const cyclic = problems.length > 0;
    const nodes = steps.map((step, i) => ({
      id: stepIdOf(shape[i], i),
      // A graph with a cycle cannot be laid out in columns: it is drawn without its edges until the cycle is gone.
      needs: cyclic ? [] : needsOf(shape, i).map((at) => stepIdOf(shape[at], at)),
      title:
        step.kind === 'agent' || step.kind === 'map'
          ? `${step.agent.trim() || '(no agent yet)'}${step.kind === 'map' ? ' per item' : ''}`
          : previewTitle(step),
    }));
    return { nodes, problems };
  }, [steps]);
  return (
    <section class="steps-preview" aria-label="The steps as a graph">
      <div class="graph-check" data-testid="graph-check" role="status">
        {problems.length === 0 ? (
          <span class="ok">✓ The needs make a graph the service can run.</span>
        ) : (
          <ul class="bad">
            {[
              ...new Set(
                problems.map((problem) => `${problem.path.replace(/\.needs$|\.id$/, '')}: ${problem.message}`),
              ),
            ].map((line) => (
              <li key={line}>✗ {line}</li>
            ))}
          </ul>
        )}
      </div>
      <WorkflowGraph steps={nodes} label="The steps as a graph, as typed" />
    </section>
  );
}

/** What a step that is not an agent's shows in the preview. */
function previewTitle(step: StepDraft): string {
  if (step.kind === 'wait') return `waits for ${step.signal.trim() || 'a signal'}`;
  if (step.kind === 'workflow') return `workflow ${step.childWorkflow.trim() || '(not named yet)'}`;
  return step.kind === 'sleep' ? 'sleeps' : 'approval';
}

import { ancestorsOfEach, stepIdOf, stepIndexOf } from '../../shared/step-graph';
import { WorkflowStep } from '../workflow/workflow.state';
import { ReusedStep } from '../workflow-run/workflow-run.commands';
import { WorkflowRunAggregate } from '../workflow-run/workflow-run.state';

/** `fromStep` and every step that needs it, directly or through others: what a replay from it runs again. */
export function stepsToRerun(steps: WorkflowStep[], fromStep: string): Set<number> {
  const from = stepIndexOf(steps, fromStep);
  if (from === undefined) return new Set(steps.map((_, i) => i));
  const ancestors = ancestorsOfEach(steps);
  return new Set(steps.flatMap((_, i) => (i === from || ancestors[i].has(from) ? [i] : [])));
}

/**
 * The steps a replay takes from the run it replays: those it does not run again that succeeded there (matched by
 * id), with their recorded outputs; any other step runs again.
 */
export function reusableSteps(steps: WorkflowStep[], fromStep: string, replayed: WorkflowRunAggregate): ReusedStep[] {
  const rerun = stepsToRerun(steps, fromStep);
  return steps.flatMap((step, index): ReusedStep[] => {
    if (rerun.has(index)) return [];
    const id = stepIdOf(step, index);
    const recorded = replayed.steps.find((s) => s.id === id || (s.id === undefined && String(s.index) === id));
    if (recorded?.status !== 'succeeded' || recorded.output === null) return [];
    const object = recorded.outputObject !== undefined && { outputObject: recorded.outputObject };
    return [{ index, output: recorded.output, ...object }];
  });
}

import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import { conditionProblem, conditionStepRefs } from '../step-condition';
import { MAP_OVER, ancestorsOfEach, cycleIn, stepIdOf, stepIndexOf, stepRefsIn } from '../../shared/step-graph';
import { WorkflowStep, templatesOf } from '../workflow/workflow.state';
import { StepDto, toWorkflowStep } from './step.dto';

/** The steps as the domain has them, once their graph holds together; a 400 names each field that does not. */
export function toWorkflowSteps(dtos: StepDto[], outputStep: string | undefined, name: string): WorkflowStep[] {
  const steps = dtos.map(toWorkflowStep);
  if (outputStep !== undefined && stepIndexOf(steps, outputStep) === undefined) {
    throw new ValidationFailed([{ path: 'outputStep', message: `no step has the id "${outputStep}"` }]);
  }
  const errors = dtos.flatMap(kindProblems);
  dtos.forEach((dto, i) => {
    if (dto.workflow?.trim() === name.trim()) {
      errors.push({ path: `steps[${i}].workflow`, message: `a workflow cannot run itself ("${name}")` });
    }
  });
  if (!errors.length) errors.push(...stepGraphProblems(steps));
  if (errors.length) throw new ValidationFailed(errors, 'The steps do not make a valid graph');
  return steps;
}

/**
 * Ids unique; needs that name steps, and no cycle; templates and conditions that name only steps among the step's
 * needs (directly or through them), since only those have ended when it starts; conditions JSON Logic reads.
 */
export function stepGraphProblems(steps: WorkflowStep[]): FieldError[] {
  const errors: FieldError[] = [];
  const firstWithId = new Map<string, number>();
  steps.forEach((step, i) => {
    const id = stepIdOf(step, i);
    const first = firstWithId.get(id);
    if (first === undefined) firstWithId.set(id, i);
    else errors.push({ path: `steps[${i}].id`, message: `id "${id}" is already the id of steps[${first}]` });
  });
  steps.forEach((step, i) => {
    (step.needs ?? []).forEach((ref, n) => {
      const at = stepIndexOf(steps, ref);
      if (at === undefined) errors.push({ path: `steps[${i}].needs[${n}]`, message: `no step has the id "${ref}"` });
      else if (at === i) errors.push({ path: `steps[${i}].needs[${n}]`, message: 'a step cannot need itself' });
    });
  });
  if (errors.length) return errors;
  const cycle = cycleIn(steps);
  if (cycle) {
    const ids = [...cycle, cycle[0]].map((at) => `"${stepIdOf(steps[at], at)}"`).join(' → ');
    return [{ path: `steps[${cycle[0]}].needs`, message: `the needs make a cycle: ${ids}` }];
  }
  const ancestors = ancestorsOfEach(steps);
  steps.forEach((step, i) => {
    const before = ancestors[i];
    const notNeeded = (ref: string) => {
      const at = stepIndexOf(steps, ref);
      return at === undefined ? `no step has the id "${ref}"` : before.has(at) ? undefined : notAmongNeeds(ref);
    };
    const mapFrom = 'map' in step && step.map ? MAP_OVER.exec(step.map.over)?.[1] : undefined;
    const mapProblem = mapFrom === undefined ? undefined : notNeeded(mapFrom);
    if (mapProblem) errors.push({ path: `steps[${i}].map.over`, message: `steps.${mapFrom}: ${mapProblem}` });
    for (const { field, text } of templatesOf(step)) {
      for (const ref of stepRefsIn(text)) {
        const problem = notNeeded(ref);
        if (problem) errors.push({ path: `steps[${i}].${field}`, message: `{{steps.${ref}…}}: ${problem}` });
      }
    }
    if (step.when !== undefined) {
      const problem = conditionProblem(step.when);
      if (problem) errors.push({ path: `steps[${i}].when`, message: problem });
      for (const ref of problem ? [] : conditionStepRefs(step.when)) {
        const refProblem = notNeeded(ref);
        if (refProblem) errors.push({ path: `steps[${i}].when`, message: `steps.${ref}: ${refProblem}` });
      }
    }
  });
  return errors;
}

/** The fields that belong to another kind of step than the one given, and a sleep with both or neither time. */
function kindProblems(dto: StepDto, i: number): FieldError[] {
  const kinds = (['approval', 'wait', 'sleep', 'workflow'] as const).filter((kind) => dto[kind] !== undefined);
  if (dto.input !== undefined && kinds[0] !== 'workflow') {
    return [{ path: `steps[${i}].input`, message: 'input is for workflow steps only (a step with workflow)' }];
  }
  if (kinds.length > 1) {
    return [{ path: `steps[${i}].${kinds[1]}`, message: `a step is one kind: it has ${kinds.join(' and ')}` }];
  }
  const kind = kinds[0];
  if (kind === undefined) return mapProblems(dto, i);
  const agentOnly = ['agent', 'action', 'context', 'retry', 'map', 'onItemError', 'repeat'] as const;
  // A workflow step retries its child runs as an agent step retries its runs; a wait step waits again.
  const retries = kind === 'workflow' || kind === 'wait';
  const foreign: string[] = agentOnly.filter((field) => dto[field] !== undefined && !(retries && field === 'retry'));
  if ((kind === 'wait' || kind === 'sleep') && dto.timeoutMs !== undefined) foreign.push('timeoutMs');
  const errors = foreign.map((field) => ({
    path: `steps[${i}].${field}`,
    message:
      field === 'timeoutMs'
        ? `a ${kind} step has no timeoutMs${kind === 'wait' ? ' (its wait.timeoutMs bounds the wait)' : ''}`
        : `${field} is for agent steps only, not a ${kind} step`,
  }));
  if (kind === 'wait' && dto.retry !== undefined && dto.wait?.timeoutMs === undefined) {
    errors.push({ path: `steps[${i}].retry`, message: "a wait step's retry waits again after wait.timeoutMs: set it" });
  }
  if (dto.sleep && (dto.sleep.ms === undefined) === (dto.sleep.until === undefined)) {
    errors.push({ path: `steps[${i}].sleep`, message: 'sleep takes either ms or until' });
  }
  return errors;
}

/**
 * An agent step may map or repeat, not both; neither retries (onItemError says what a failed item does, and a
 * repeat is the step's own loop); onItemError needs a map; a repeat's until must be a rule JSON Logic reads.
 */
function mapProblems(dto: StepDto, i: number): FieldError[] {
  const errors: FieldError[] = [];
  const at = (field: string, message: string) => errors.push({ path: `steps[${i}].${field}`, message });
  if (dto.map === undefined && dto.onItemError !== undefined) {
    at('onItemError', 'onItemError is for map steps only (a step with map)');
  }
  if (dto.map !== undefined && dto.repeat !== undefined) at('repeat', 'a step either maps over a list or repeats');
  if (dto.retry !== undefined && dto.map !== undefined) {
    at('retry', 'a map step has no retry: onItemError says what a failed item does');
  } else if (dto.retry !== undefined && dto.repeat !== undefined) {
    at('retry', 'a repeating step has no retry: it runs again until its rule holds or repeat.max');
  }
  const problem = dto.repeat && conditionProblem(dto.repeat.until);
  if (problem) at('repeat.until', problem);
  return errors;
}

const notAmongNeeds = (ref: string) =>
  `step "${ref}" is not among this step's needs (directly or through them), so it may not have run yet`;

import { cycleIn, MAP_OVER, STEP_ID, STEP_ID_RULE, stepIdOf, stepIndexOf } from '../../../src/shared/step-graph';
import { previewCron } from '../pages/cron-preview';
import { FieldProblem, parseCount, parseJsonField } from './form-problem';
import { checkObjectSchema } from './json-schema-check';
import { StepDraft, WorkflowDraft, graphSteps, needsOfDraft } from './workflow-draft';

/**
 * The draft as the API takes it, and every problem the form can find before sending, each by the path the service
 * would name: a blank name, a cron or zone the service would refuse, JSON that is not, an agent no active agent is
 * named (when `agentNames` is known), needs that name no step or make a cycle, numbers out of range.
 */
export function workflowBody(draft: WorkflowDraft, agentNames: string[] | null) {
  const problems: FieldProblem[] = [];
  if (!draft.name.trim()) problems.push({ path: 'name', message: 'name must not be empty' });
  const timezone = draft.timezone.trim() || 'UTC';
  if (draft.scheduled) {
    const preview = previewCron(draft.cron, timezone);
    if (!preview.valid) {
      const zone = preview.problem.endsWith('is not an IANA time zone');
      problems.push({ path: zone ? 'trigger.timezone' : 'trigger.cron', message: preview.problem });
    }
  }
  let inputSchema: Record<string, unknown> | null = null;
  if (draft.inputSchema.trim()) {
    const check = checkObjectSchema(draft.inputSchema);
    if (check.ok) inputSchema = check.schema;
    else problems.push({ path: 'inputSchema', message: check.message });
  }
  const steps = draft.steps.map((step, i) => stepBody(step, i, agentNames, problems));
  problems.push(...graphProblems(draft.steps));
  const outputStep = draft.outputStep.trim();
  if (outputStep && stepIndexOf(graphSteps(draft.steps), outputStep) === undefined) {
    problems.push({ path: 'outputStep', message: `no step has the id "${outputStep}"` });
  }
  const limit = draft.maxConcurrentRuns.trim();
  const maxConcurrentRuns = limit === '' ? null : parseCount(limit, 'maxConcurrentRuns', 1, 1000, problems);
  const concurrency = concurrencyOf(draft, problems);
  const body = {
    name: draft.name,
    trigger: draft.scheduled
      ? { type: 'schedule' as const, cron: draft.cron.trim(), timezone }
      : { type: 'manual' as const },
    steps,
    inputSchema,
    outputStep: outputStep || null,
    overlap: draft.overlap,
    maxConcurrentRuns,
    concurrency,
  };
  return { body, problems };
}

/** `{key, limit}` when a key is given; the service's rule that a key cannot read steps, checked here first. */
function concurrencyOf(draft: WorkflowDraft, problems: FieldProblem[]) {
  const key = draft.concurrencyKey;
  if (!key.trim()) return null;
  if (/\{\{\s*steps\./.test(key)) {
    problems.push({
      path: 'concurrency.key',
      message: 'concurrency.key is filled in from the input: it cannot read {{steps…}}',
    });
  }
  return { key, limit: parseCount(draft.concurrencyLimit, 'concurrency.limit', 1, 1000, problems) };
}

function stepBody(step: StepDraft, i: number, agentNames: string[] | null, problems: FieldProblem[]) {
  const at = `steps[${i}]`;
  const id = step.id.trim();
  if (id && !STEP_ID.test(id)) {
    problems.push({ path: `${at}.id`, message: STEP_ID_RULE });
  }
  const when = parseJsonField(step.when, `${at}.when`, problems, 'any');
  const timeoutPath = step.kind === 'wait' ? `${at}.wait.timeoutMs` : `${at}.timeoutMs`;
  const timeoutMs =
    step.timeoutMs.trim() && step.kind !== 'sleep'
      ? parseCount(step.timeoutMs, timeoutPath, 1000, 31_536_000_000, problems)
      : undefined;
  const common = {
    ...(id && { id }),
    ...(needsOfDraft(step) !== undefined && { needs: needsOfDraft(step) }),
    ...(when !== undefined && { when: when as Record<string, unknown> | boolean }),
  };
  if (step.kind === 'wait') {
    if (!step.signal.trim()) problems.push({ path: `${at}.wait.signal`, message: 'wait.signal must not be empty' });
    const key = step.signalKey.trim() && { key: step.signalKey };
    const attempts = parseCount(step.attempts, `${at}.retry.attempts`, 1, 10, problems);
    const waits = attempts > 1 && { retry: { attempts } };
    return {
      ...common,
      wait: { signal: step.signal, ...key, ...(timeoutMs !== undefined && { timeoutMs }) },
      ...waits,
    };
  }
  if (step.kind === 'sleep') return { ...common, sleep: sleepOf(step, at, problems) };
  const limit = timeoutMs !== undefined && { timeoutMs };
  if (step.kind === 'approval') {
    if (!step.approval.trim()) problems.push({ path: `${at}.approval`, message: 'approval must not be empty' });
    return { ...common, ...limit, approval: step.approval };
  }
  const retry = retryOf(step, at, problems);
  if (step.kind === 'workflow') {
    if (!step.childWorkflow.trim()) problems.push({ path: `${at}.workflow`, message: 'workflow must not be empty' });
    const input = parseJsonField(step.childInput, `${at}.input`, problems, 'object');
    return {
      ...common,
      ...limit,
      workflow: step.childWorkflow.trim(),
      ...(input !== undefined && { input: input as Record<string, unknown> }),
      ...(retry && { retry }),
    };
  }
  const agent = step.agent.trim();
  if (!agent) problems.push({ path: `${at}.agent`, message: 'agent must not be empty' });
  else if (agentNames && !agentNames.includes(agent)) {
    problems.push({ path: `${at}.agent`, message: `no active agent is named "${agent}"` });
  }
  if (!step.action.trim()) problems.push({ path: `${at}.action`, message: 'action must not be empty' });
  if (step.kind === 'map') {
    return { ...common, ...limit, ...agentTask(step), ...mapOf(step, at, problems), onItemError: step.onItemError };
  }
  const repeat = repeatOf(step, at, problems);
  if (repeat && retry) {
    problems.push({
      path: `${at}.retry`,
      message: 'a repeating step has no retry: it runs again until its rule holds or repeat.max',
    });
  }
  return { ...common, ...limit, ...agentTask(step), ...(retry && { retry }), ...(repeat && { repeat }) };
}

/** A repeating step's rule and most iterations; undefined when its rule is blank (it runs once). */
function repeatOf(step: StepDraft, at: string, problems: FieldProblem[]) {
  if (!step.repeatUntil.trim()) return undefined;
  const until = parseJsonField(step.repeatUntil, `${at}.repeat.until`, problems, 'any');
  const max = parseCount(step.repeatMax, `${at}.repeat.max`, 1, 100, problems);
  return { until: until as Record<string, unknown> | boolean, max };
}

/** An agent or workflow step's retries, when it has more than one attempt. */
function retryOf(step: StepDraft, at: string, problems: FieldProblem[]) {
  const attempts = parseCount(step.attempts, `${at}.retry.attempts`, 1, 10, problems);
  if (attempts <= 1) return undefined;
  return {
    attempts,
    backoffMs: parseCount(step.backoffMs, `${at}.retry.backoffMs`, 0, 3_600_000, problems),
    ...(step.maxBackoffMs.trim() && {
      maxBackoffMs: parseCount(step.maxBackoffMs, `${at}.retry.maxBackoffMs`, 0, 3_600_000, problems),
    }),
  };
}

const agentTask = (step: StepDraft) => ({
  agent: step.agent,
  action: step.action,
  ...(step.context && { context: step.context }),
});

/** A map step's list: a path the service would take, and how many items run at once. */
function mapOf(step: StepDraft, at: string, problems: FieldProblem[]) {
  const over = step.mapOver.trim();
  if (!MAP_OVER.test(over)) {
    const message = 'map.over must be a path: input.<path>, or steps.<id>.output or steps.<id>.outputObject and a path';
    problems.push({ path: `${at}.map.over`, message });
  }
  const concurrency = parseCount(step.mapConcurrency, `${at}.map.concurrency`, 1, 1000, problems);
  return { map: { over, concurrency } };
}

/** A sleep step's time: `ms` or `until`, whichever is filled in (one of them). */
function sleepOf(step: StepDraft, at: string, problems: FieldProblem[]): { ms: number } | { until: string } {
  if (step.sleepUntil.trim()) return { until: step.sleepUntil.trim() };
  if (!step.sleepMs.trim()) {
    problems.push({ path: `${at}.sleep.ms`, message: 'sleep takes either ms or until: fill in one' });
    return { ms: 0 };
  }
  return { ms: parseCount(step.sleepMs, `${at}.sleep.ms`, 1, 31_536_000_000, problems) };
}

/** Ids used twice, needs that name no step or the step itself, and a cycle, as the service would name them. */
export function graphProblems(drafts: StepDraft[]): FieldProblem[] {
  const steps = graphSteps(drafts);
  const problems: FieldProblem[] = [];
  const seen = new Map<string, number>();
  steps.forEach((step, i) => {
    const id = stepIdOf(step, i);
    const first = seen.get(id);
    if (first !== undefined)
      problems.push({ path: `steps[${i}].id`, message: `id "${id}" is already the id of steps[${first}]` });
    else seen.set(id, i);
    for (const ref of step.needs ?? []) {
      const at = stepIndexOf(steps, ref);
      if (at === undefined) problems.push({ path: `steps[${i}].needs`, message: `no step has the id "${ref}"` });
      else if (at === i) problems.push({ path: `steps[${i}].needs`, message: 'a step cannot need itself' });
    }
  });
  if (problems.length) return problems;
  const cycle = cycleIn(steps);
  if (!cycle) return [];
  const ids = [...cycle, cycle[0]].map((at) => `"${stepIdOf(steps[at], at)}"`).join(' → ');
  return cycle.map((at) => ({ path: `steps[${at}].needs`, message: `these needs would make a cycle: ${ids}` }));
}

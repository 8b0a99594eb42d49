import type { Workflow } from '../api/schema';

export type StepContext = 'input' | 'steps' | 'all';

export type StepKind = 'agent' | 'map' | 'workflow' | 'approval' | 'wait' | 'sleep';

/** One step as the form holds it: an agent, map, workflow, approval, wait or sleep step, every field as typed. */
export interface StepDraft {
  kind: StepKind;
  agent: string;
  action: string;
  /** An approval step: the text the approver reads. */
  approval: string;
  /** A wait step: the signal's name, and its key (a template; blank: any key). */
  signal: string;
  signalKey: string;
  /** A sleep step: for how long (ms), or until when (a template giving an ISO time); one of the two. */
  sleepMs: string;
  sleepUntil: string;
  /** A map step (an agent step once per item): the list's path, how many items at once, and a failed item's rule. */
  mapOver: string;
  mapConcurrency: string;
  onItemError: 'fail' | 'skip';
  /** A workflow step: the workflow's name, and its child's input as JSON text (templates in its strings). */
  childWorkflow: string;
  childInput: string;
  context: '' | StepContext;
  /** Blank: the step's position. */
  id: string;
  /** As typed: ids separated by commas, `-` for nothing, blank for the step before. */
  needs: string;
  /** A JSON Logic rule as JSON text; blank: always. */
  when: string;
  /** An agent step that repeats: its until rule as JSON text (blank: it runs once), and the most iterations. */
  repeatUntil: string;
  repeatMax: string;
  attempts: string;
  backoffMs: string;
  maxBackoffMs: string;
  timeoutMs: string;
}

/** A workflow as its form holds it: every field the API takes. */
export interface WorkflowDraft {
  name: string;
  scheduled: boolean;
  cron: string;
  timezone: string;
  inputSchema: string;
  steps: StepDraft[];
  /** Blank: the last step. */
  outputStep: string;
  overlap: Workflow['overlap'];
  /** Blank: no limit. */
  maxConcurrentRuns: string;
  /** The concurrency key's template; blank: no limit per key. */
  concurrencyKey: string;
  concurrencyLimit: string;
}

export function emptyStep(): StepDraft {
  return {
    kind: 'agent',
    agent: '',
    action: '',
    approval: '',
    signal: '',
    signalKey: '',
    sleepMs: '',
    sleepUntil: '',
    mapOver: '',
    mapConcurrency: '1',
    onItemError: 'fail',
    childWorkflow: '',
    childInput: '',
    context: '',
    id: '',
    needs: '',
    when: '',
    repeatUntil: '',
    repeatMax: '3',
    attempts: '1',
    backoffMs: '1000',
    maxBackoffMs: '',
    timeoutMs: '',
  };
}

type ApiStep = Workflow['steps'][number];

/** A draft of a new workflow, or of an existing one to edit. */
export function workflowDraft(workflow?: Workflow): WorkflowDraft {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  if (!workflow) {
    return {
      name: '',
      scheduled: false,
      cron: '0 9 * * 1-5',
      timezone: zone,
      inputSchema: '',
      steps: [emptyStep()],
      outputStep: '',
      overlap: 'allow',
      maxConcurrentRuns: '',
      concurrencyKey: '',
      concurrencyLimit: '1',
    };
  }
  const { trigger } = workflow;
  return {
    name: workflow.name,
    scheduled: trigger.type === 'schedule',
    cron: trigger.cron ?? '0 9 * * 1-5',
    timezone: trigger.timezone ?? zone,
    inputSchema: workflow.inputSchema ? JSON.stringify(workflow.inputSchema, null, 2) : '',
    steps: workflow.steps.map(stepDraft),
    outputStep: workflow.outputStep ?? '',
    overlap: workflow.overlap,
    maxConcurrentRuns: workflow.maxConcurrentRuns === null ? '' : String(workflow.maxConcurrentRuns),
    concurrencyKey: workflow.concurrency?.key ?? '',
    concurrencyLimit: String(workflow.concurrency?.limit ?? 1),
  };
}

function stepDraft(step: ApiStep): StepDraft {
  return {
    ...emptyStep(),
    kind: kindOf(step),
    agent: step.agent ?? '',
    action: step.action ?? '',
    approval: step.approval ?? '',
    context: step.context ?? '',
    id: step.id ?? '',
    needs: step.needs === undefined ? '' : step.needs.length ? step.needs.join(', ') : '-',
    when: step.when === undefined ? '' : JSON.stringify(step.when),
    ...(step.retry && {
      attempts: String(step.retry.attempts),
      backoffMs: String(step.retry.backoffMs ?? 1000),
      maxBackoffMs: step.retry.maxBackoffMs === undefined ? '' : String(step.retry.maxBackoffMs),
    }),
    timeoutMs: String(step.timeoutMs ?? step.wait?.timeoutMs ?? ''),
    signal: step.wait?.signal ?? '',
    signalKey: step.wait?.key ?? '',
    sleepMs: step.sleep?.ms === undefined ? '' : String(step.sleep.ms),
    sleepUntil: step.sleep?.until ?? '',
    ...(step.repeat && { repeatUntil: JSON.stringify(step.repeat.until), repeatMax: String(step.repeat.max) }),
    mapOver: step.map?.over ?? '',
    mapConcurrency: String(step.map?.concurrency ?? 1),
    onItemError: step.onItemError === 'skip' ? 'skip' : 'fail',
    childWorkflow: step.workflow ?? '',
    childInput: step.input === undefined ? '' : JSON.stringify(step.input, null, 2),
  };
}

function kindOf(step: ApiStep): StepKind {
  if (step.approval !== undefined) return 'approval';
  if (step.wait !== undefined) return 'wait';
  if (step.map !== undefined) return 'map';
  if (step.workflow !== undefined) return 'workflow';
  return step.sleep !== undefined ? 'sleep' : 'agent';
}

/** A step's needs as typed, as the API takes them: undefined for the step before, [] for nothing. */
export function needsOfDraft(step: StepDraft): string[] | undefined {
  const text = step.needs.trim();
  if (text === '') return undefined;
  if (text === '-') return [];
  return text
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** The steps as the graph draws them and checks them: ids and needs only. */
export function graphSteps(steps: StepDraft[]) {
  return steps.map((step) => ({ id: step.id.trim() || undefined, needs: needsOfDraft(step) }));
}

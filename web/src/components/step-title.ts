/** The fields that say what kind of step it is, as a workflow's and a run's steps both have them. */
interface StepKindFields {
  agent?: string | null;
  approval?: string;
  wait?: { signal: string; key?: string };
  retry?: { attempts: number };
  sleep?: { ms?: number; until?: string };
  map?: { over: string };
  workflow?: string;
}

/** What does the step, as the graph and the cards name it: the agent, or what the step waits for. */
export function stepTitle(step: StepKindFields): string {
  if (step.agent) return step.map ? `${step.agent} per item` : step.agent;
  if (step.wait) return `signal ${step.wait.signal}`;
  if (step.workflow) return `workflow ${step.workflow}`;
  if (step.sleep) return 'sleep';
  return 'approval';
}

/** A wait, sleep or workflow step's definition in words; undefined for the other kinds. */
export function waitingText(step: StepKindFields): string | undefined {
  if (step.workflow) return `runs the workflow ${step.workflow}`;
  if (step.wait) {
    const key = step.wait.key === undefined ? '' : ` with the key ${step.wait.key}`;
    const again = step.retry && step.retry.attempts > 1 ? `, up to ${step.retry.attempts} times` : '';
    return `waits for the signal ${step.wait.signal}${key}${again}`;
  }
  if (step.sleep)
    return step.sleep.until !== undefined ? `sleeps until ${step.sleep.until}` : `sleeps ${step.sleep.ms} ms`;
  return undefined;
}

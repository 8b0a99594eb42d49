import { WorkflowStep } from './workflow';

/**
 * Steps as a graph. A step's id is its `id`, or its position ("0", "1", …); a step needs the steps its `needs`
 * names (by id, or by position), or, without `needs`, the step before it, so a list of steps is a chain.
 */
export function stepIdOf(step: Pick<WorkflowStep, 'id'>, index: number): string {
  return step.id ?? String(index);
}

/** The position of the step a reference names: an id first, then a position; undefined when none. */
export function stepIndexOf(steps: ReadonlyArray<Pick<WorkflowStep, 'id'>>, ref: string): number | undefined {
  const byId = steps.findIndex((step, i) => stepIdOf(step, i) === ref);
  if (byId >= 0) return byId;
  if (!/^\d+$/.test(ref)) return undefined;
  const position = Number(ref);
  return position < steps.length ? position : undefined;
}

/** The positions of the steps a step needs (references that name no step are left out; the checks report them). */
export function needsOf(steps: ReadonlyArray<Pick<WorkflowStep, 'id' | 'needs'>>, index: number): number[] {
  const needs = steps[index].needs;
  if (needs === undefined) return index === 0 ? [] : [index - 1];
  return needs.flatMap((ref) => {
    const at = stepIndexOf(steps, ref);
    return at === undefined ? [] : [at];
  });
}

/** Every step a step needs, directly or through others. */
export function ancestorsOf(steps: ReadonlyArray<Pick<WorkflowStep, 'id' | 'needs'>>, index: number): Set<number> {
  const seen = new Set<number>();
  const visit = (at: number) => {
    for (const need of needsOf(steps, at)) {
      if (seen.has(need)) continue;
      seen.add(need);
      visit(need);
    }
  };
  visit(index);
  return seen;
}

/** A step of a cycle, if the needs make one (a cycle would never start). */
export function cycleIn(steps: ReadonlyArray<Pick<WorkflowStep, 'id' | 'needs'>>): number[] | undefined {
  const state = new Map<number, 'visiting' | 'done'>();
  const path: number[] = [];
  const visit = (at: number): number[] | undefined => {
    if (state.get(at) === 'done') return undefined;
    if (state.get(at) === 'visiting') return path.slice(path.indexOf(at));
    state.set(at, 'visiting');
    path.push(at);
    for (const need of needsOf(steps, at)) {
      const cycle = visit(need);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(at, 'done');
    return undefined;
  };
  for (let i = 0; i < steps.length; i++) {
    const cycle = visit(i);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Step references in a template: `{{steps.<id or position>.output…}}`. */
export function stepRefsIn(template: string): string[] {
  return [...template.matchAll(/\{\{\s*steps\.([^{}\s.]+)\.output/g)].map((match) => match[1]);
}

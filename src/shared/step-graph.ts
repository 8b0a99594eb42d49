/**
 * Steps as a graph. A step's id is its `id`, or its position ("0", "1", …); a step needs the steps its `needs`
 * names (by id, or by position), or, without `needs`, the step before it, so a list of steps is a chain.
 * The service checks and runs workflows by these rules, and the console draws and checks its editor's steps by
 * them, so this file imports nothing.
 */
/** What a step's own `id` may be: not a position (so it cannot be mistaken for one), and safe in a template path. */
export const STEP_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
export const STEP_ID_RULE = 'id must start with a letter or _ and hold only letters, digits, _ and - (at most 64)';

/**
 * What a map step's `map.over` may be: `input` and a path, or a step's `output` (or `outputObject`) and a path into
 * it; the first group is the step named.
 */
export const MAP_OVER = /^(?:input|steps\.([^\s.{}]+)\.(?:output|outputObject))(?:\.[^\s.{}]+)*$/;

export interface GraphStep {
  readonly id?: string;
  readonly needs?: ReadonlyArray<string>;
}

export function stepIdOf(step: Pick<GraphStep, 'id'>, index: number): string {
  return step.id ?? String(index);
}

/**
 * The positions of the steps by id (the first step of an id, as a search from the start finds it), kept per steps
 * array: a graph's checks and a run's advance look references up over and over, and searching the steps each time
 * made 100 steps that each need all earlier ones cost tens of milliseconds. Step lists are never changed in place
 * (a run's steps change by a new array), so an array's index never goes stale.
 */
const indexes = new WeakMap<ReadonlyArray<Pick<GraphStep, 'id'>>, Map<string, number>>();

function idIndex(steps: ReadonlyArray<Pick<GraphStep, 'id'>>): Map<string, number> {
  let index = indexes.get(steps);
  if (!index) {
    index = new Map();
    for (let i = steps.length - 1; i >= 0; i--) index.set(stepIdOf(steps[i], i), i);
    indexes.set(steps, index);
  }
  return index;
}

/** The position of the step a reference names: an id first, then a position; undefined when none. */
export function stepIndexOf(steps: ReadonlyArray<Pick<GraphStep, 'id'>>, ref: string): number | undefined {
  const byId = idIndex(steps).get(ref);
  if (byId !== undefined) return byId;
  if (!/^\d+$/.test(ref)) return undefined;
  const position = Number(ref);
  return position < steps.length ? position : undefined;
}

/** The positions of the steps a step needs (references that name no step are left out; the checks report them). */
export function needsOf(steps: ReadonlyArray<GraphStep>, index: number): number[] {
  const needs = steps[index].needs;
  if (needs === undefined) return index === 0 ? [] : [index - 1];
  const positions: number[] = [];
  for (const ref of needs) {
    const at = stepIndexOf(steps, ref);
    if (at !== undefined) positions.push(at);
  }
  return positions;
}

/**
 * Every step each step needs, directly or through others, by position. Each step's set is made once from those of
 * its needs, so a graph of 100 steps that each need all earlier ones costs a few thousand set additions, not the
 * million lookups that walking each step's ancestors again from scratch took.
 */
export function ancestorsOfEach(steps: ReadonlyArray<GraphStep>): Set<number>[] {
  const sets: Array<Set<number> | undefined> = [];
  const of = (at: number): Set<number> => {
    const known = sets[at];
    if (known) return known;
    const set = new Set<number>();
    // Set before the needs are visited, so that a cycle (refused elsewhere) ends rather than recursing forever.
    sets[at] = set;
    for (const need of needsOf(steps, at)) {
      set.add(need);
      for (const ancestor of of(need)) set.add(ancestor);
    }
    return set;
  };
  return steps.map((_, at) => of(at));
}

/** A step of a cycle, if the needs make one (a cycle would never start). */
export function cycleIn(steps: ReadonlyArray<GraphStep>): number[] | undefined {
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

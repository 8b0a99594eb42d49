import { integer, oneOf } from './env';

/**
 * Settings declared once: how each environment variable is read, and what the configuration reference
 * (`docs/configuration.md`, `npm run docs:config`) says of it.
 */

type Env = NodeJS.ProcessEnv;

/** One row of the configuration reference. */
export interface Variable {
  name: string;
  /** The value it has when unset, where there is one that the variable itself can spell. */
  default?: string;
  /** How the reference shows the default: after `default`, or instead of it. */
  note?: string;
  meaning: string;
  /** An integer's bounds, or the values a choice takes; the reference states them. */
  range?: readonly [number, number];
  values?: readonly string[];
}

/** A value of the configuration and the variables it is read from (none for a fixed value). */
export class Setting<T> {
  constructor(
    readonly variables: readonly Variable[],
    readonly read: (env: Env) => T,
  ) {}
}

/** The configuration's shape, a Setting at each leaf; `readSettings` reads the leaves in declaration order. */
export type Settings = { [key: string]: Setting<unknown> | Settings };
export type SettingsValue<S> = S extends Setting<infer T> ? T : { [K in keyof S]: SettingsValue<S[K]> };

export function readSettings<S extends Settings>(settings: S, env: Env): SettingsValue<S> {
  const entries = Object.entries(settings).map(([key, entry]) => [
    key,
    entry instanceof Setting ? entry.read(env) : readSettings(entry, env),
  ]);
  return Object.fromEntries(entries) as SettingsValue<S>;
}

/** Every variable, in declaration order. */
export function variablesOf(settings: Settings): Variable[] {
  return Object.values(settings).flatMap((entry) => (entry instanceof Setting ? entry.variables : variablesOf(entry)));
}

export function integerVariable(
  name: string,
  fallback: number,
  min: number,
  max: number,
  meaning: string,
  note?: string,
): Variable {
  return { name, default: String(fallback), note, meaning, range: [min, max] };
}

export function int(name: string, fallback: number, min: number, max: number, meaning: string, note?: string) {
  return new Setting([integerVariable(name, fallback, min, max, meaning, note)], (env) =>
    integer(env, name, fallback, min, max),
  );
}

export function choice<T extends string>(name: string, values: readonly T[], fallback: T, meaning: string) {
  return new Setting([{ name, default: fallback, meaning, values }], (env) => oneOf(env, name, values, fallback));
}

export function flag(name: string, fallback: boolean, meaning: string) {
  const values = ['true', 'false'] as const;
  return new Setting([{ name, default: String(fallback), meaning, values }], (env) => {
    return oneOf(env, name, values, fallback ? 'true' : 'false') === 'true';
  });
}

/** A variable read by `read`, which gives its own error messages. */
export function custom<T>(variable: Variable, read: (env: Env) => T) {
  return new Setting([variable], read);
}

/** A group read by a loader of its own; `variables` documents what that loader reads. */
export function group<T>(read: (env: Env) => T, variables: Variable[]) {
  return new Setting(variables, read);
}

export function fixed<T>(value: T) {
  return new Setting([], () => value);
}

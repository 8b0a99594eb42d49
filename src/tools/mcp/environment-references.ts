/** `${NAME}`: an environment variable's name as shells spell one. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Fills in the `${NAME}` references of the values of a servers file from the environment, so that a token never has
 * to be written in the file. The values filled in are collected in `secrets`, for the connection to take out of
 * every message it logs or records. A reference to a variable that is unset or empty throws an error naming it and
 * `where` (the server and the field), never quoting any value.
 */
export class EnvironmentReferences {
  readonly secrets = new Set<string>();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  fill(text: string, where: string): string {
    return text.replace(REFERENCE, (_, name: string) => {
      const value = this.env[name];
      if (value === undefined || value === '') {
        throw new Error(`${where} names the environment variable ${name}, which is not set`);
      }
      this.secrets.add(value);
      return value;
    });
  }

  fillAll(values: Record<string, string> | undefined, where: string): Record<string, string> | undefined {
    if (values === undefined) return undefined;
    return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, this.fill(value, `${where}.${key}`)]));
  }
}

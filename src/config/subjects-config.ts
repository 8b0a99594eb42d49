import { group } from '../shared/settings';

export interface SubjectsConfig {
  /** Encrypts the subjects' data keys; unset: subjects cannot be forgotten, and their content is not sealed. */
  dataKeySecret?: string;
}

/** Reads the setting; a bad value throws an error naming the variable (never quoting it). */
export function loadSubjectsConfig(env: NodeJS.ProcessEnv = process.env): SubjectsConfig {
  const secret = env.DATA_KEY_SECRET?.trim() || undefined;
  if (secret !== undefined && !/^[\x21-\x7e]{32,}$/.test(secret)) {
    throw new Error('DATA_KEY_SECRET must be at least 32 printable characters, without spaces');
  }
  return secret ? { dataKeySecret: secret } : {};
}

/** The setting as `docs/configuration.md` lists it. */
export const SUBJECTS_SETTINGS = group(loadSubjectsConfig, [
  {
    name: 'DATA_KEY_SECRET',
    meaning:
      "At least 32 printable characters: the key that encrypts the subjects' data keys (see [Security](security.md#forgetting-a-person)). Set: the content of events about a subject is stored encrypted under the subject's key, and `DELETE /v1/subjects/{subjectId}` forgets it. Unset: content is stored as it is, and subjects cannot be forgotten (a `409`). Keep it: without it, what was sealed cannot be read.",
  },
]);

import { createHash } from 'node:crypto';

/** Providers accept tool names of letters, digits, `_` and `-`, at most 64 characters. */
export const MODEL_NAME_MAX_LENGTH = 64;

/** `mcp:github/create issue` → `mcp_github_create_issue`. */
export function sanitiseToolName(id: string): string {
  const name = id
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MODEL_NAME_MAX_LENGTH);
  return name === '' ? 'tool' : name;
}

/**
 * One model name per tool id, unique within the list (compared without case, as some providers do).
 * A name cut to fit or already taken gets a short hash of its id, so it stays the same from run to run.
 */
export function assignModelNames(ids: string[]): string[] {
  const taken = new Set<string>();
  return ids.map((id) => {
    const plain = sanitiseToolName(id);
    const fits = plain.length < MODEL_NAME_MAX_LENGTH || plain === id;
    let name = fits && !taken.has(plain.toLowerCase()) ? plain : withSuffix(plain, hash(id));
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = withSuffix(plain, `${hash(id)}_${n}`);
    taken.add(name.toLowerCase());
    return name;
  });
}

function withSuffix(name: string, suffix: string): string {
  return `${name.slice(0, MODEL_NAME_MAX_LENGTH - suffix.length - 1)}_${suffix}`;
}

function hash(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 8);
}

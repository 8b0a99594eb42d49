import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What a sealed value reads as once its subject's key is destroyed. */
export const FORGOTTEN = Object.freeze({ forgotten: true as const });

/** Whether a value read is FORGOTTEN: sealed content whose subject is forgotten. */
export const isForgotten = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (value as { forgotten?: unknown }).forgotten === true &&
  Object.keys(value).length === 1;

/** A value sealed in place: `v1.<keyId>.<iv>.<tag>.<ciphertext>`, the value's JSON under the subject's data key. */
export interface Sealed {
  $sealed: string;
}

export const isSealed = (value: unknown): value is Sealed =>
  typeof value === 'object' && value !== null && typeof (value as Partial<Sealed>).$sealed === 'string';

/**
 * The value's JSON encrypted with AES-256-GCM under `key`, bound to `place` (the event's id and the field's path, as
 * associated data), so that a sealed value cannot be moved to another event or field and still open.
 */
export function seal(value: unknown, keyId: string, key: Buffer, place: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(place));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url'));
  return { $sealed: ['v1', keyId, ...parts].join('.') };
}

/** The key id a sealed value names. */
export function keyIdOf(sealed: Sealed): string {
  return sealed.$sealed.split('.')[1] ?? '';
}

/** The value, opened with `key`; FORGOTTEN when there is no key (or the value does not open with it). */
export function open(sealed: Sealed, key: Buffer | undefined, place: string): unknown {
  const [version, , iv, tag, data] = sealed.$sealed.split('.');
  if (!key || version !== 'v1' || !iv || !tag || data === undefined) return FORGOTTEN;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      .setAAD(Buffer.from(place))
      .setAuthTag(Buffer.from(tag, 'base64url'));
    const json = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(json) as unknown;
  } catch {
    return FORGOTTEN;
  }
}

/**
 * Replaces, in `data` (changed in place), each value a path names with `replace(value, place)`. A path is field names
 * joined by `.`, where `name[]` goes into each element of the array `name` (`messages[].content`); a path that
 * leads nowhere is passed over. `place` is the path with the elements' indexes (`messages.2.content`).
 */
export function replaceAt(
  data: Record<string, unknown>,
  paths: readonly string[],
  replace: (value: unknown, place: string) => unknown,
): void {
  for (const path of paths) visit(data, path.split('.'), '', replace);
}

function visit(
  node: Record<string, unknown>,
  steps: string[],
  at: string,
  replace: (value: unknown, place: string) => unknown,
): void {
  const [step, ...rest] = steps;
  const each = step.endsWith('[]');
  const name = each ? step.slice(0, -2) : step;
  if (!Object.prototype.hasOwnProperty.call(node, name) || node[name] === undefined) return;
  const place = at ? `${at}.${name}` : name;
  if (!each) {
    if (rest.length === 0) node[name] = replace(node[name], place);
    else if (isObject(node[name])) visit(node[name], rest, place, replace);
    return;
  }
  const items = node[name];
  if (!Array.isArray(items)) return;
  items.forEach((item, i) => {
    if (rest.length === 0) items[i] = replace(item, `${place}.${i}`);
    else if (isObject(item)) visit(item, rest, `${place}.${i}`, replace);
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

import { ValidationFailed } from '../shared/validation-failed';

/** A definition's strong entity tag: its version, quoted (`"3"`). */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The versions an `If-Match` header accepts: undefined when there is none or it is `*`. Weak tags never match
 * (If-Match compares strongly), nor do tags this service did not make; both count as no version.
 */
export function versionsFromIfMatch(header: string | undefined): number[] | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return undefined;
  const tags = value.split(',').map((tag) => tag.trim());
  if (!tags.every((tag) => /^(W\/)?"[\x21\x23-\x7e]*"$/.test(tag))) {
    throw new ValidationFailed(
      [{ path: 'If-Match', message: 'must be * or a list of entity tags such as "3" (quotes included)' }],
      'The If-Match header is not valid',
    );
  }
  return tags.flatMap((tag) => {
    const match = /^"([1-9]\d{0,8})"$/.exec(tag);
    return match ? [Number(match[1])] : [];
  });
}

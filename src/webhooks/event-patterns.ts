/** Event types a webhook names: exact types, or globs where `*` matches any run of characters (`AgentRun*`, `*`). */
export const EVENT_PATTERN = /^[A-Za-z0-9*]{1,100}$/;

/** Deliveries' own events are never delivered: a webhook on `*` would otherwise feed itself. */
export function isDeliverable(type: string): boolean {
  return !type.startsWith('WebhookDelivery');
}

/** Whether any of `patterns` matches `type`. */
export function matchesAny(patterns: string[], type: string): boolean {
  return patterns.some((pattern) => (pattern.includes('*') ? globOf(pattern).test(type) : pattern === type));
}

const globs = new Map<string, RegExp>();

function globOf(pattern: string): RegExp {
  let glob = globs.get(pattern);
  if (!glob) {
    glob = new RegExp(`^${pattern.split('*').join('.*')}$`);
    globs.set(pattern, glob);
  }
  return glob;
}

/** An error's message with its causes (fetch hides "ECONNREFUSED" and the like in `cause`). Realm-safe, unlike instanceof. */
export function errorMessage(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    const message = typeof current === 'object' && 'message' in current ? String(current.message) : String(current);
    if (message && !messages.includes(message)) messages.push(message);
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return messages.join(': ');
}

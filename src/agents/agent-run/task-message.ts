/** The task as the model reads it: the text, then the context as JSON when there is one. */
export function taskMessage(task: string, context: Record<string, unknown>): string {
  if (Object.keys(context).length === 0) return task;
  return `${task}\n\nContext (JSON):\n${JSON.stringify(context, null, 2)}`;
}

import { authHeaders, requireApiKey } from './api-key';
import { asProblem } from './client';

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * Reads a server-sent events response with fetch (EventSource cannot send the Authorization header) until it
 * ends or `signal` aborts; each message goes to `onMessage`. Throws the problem of a non-2xx answer.
 */
export async function readSse(
  url: string,
  signal: AbortSignal,
  onMessage: (message: SseMessage) => void,
): Promise<void> {
  const response = await fetch(url, { headers: { ...authHeaders(), accept: 'text/event-stream' }, signal });
  if (!response.ok) {
    if (response.status === 401) requireApiKey();
    throw asProblem(await response.json().catch(() => undefined), response);
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = parseMessage(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (message) onMessage(message);
    }
  }
}

function parseMessage(block: string): SseMessage | undefined {
  const message: SseMessage = { event: 'message', data: '' };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') message.event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') message.id = value;
  }
  if (!data.length) return undefined;
  message.data = data.join('\n');
  return message;
}

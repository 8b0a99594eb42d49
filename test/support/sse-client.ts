export interface SseMessage {
  event: string;
  data: any;
  /** The `id` field, when the server sent one. */
  id?: string;
}

/**
 * Reads a server-sent events response until the server ends it (or `stopWhen` says so), over real HTTP.
 * `onMessage` sees each message as it arrives (e.g. to cancel a run once its first text came).
 */
export async function readSse(
  url: string,
  options: {
    stopWhen?: (message: SseMessage) => boolean;
    onMessage?: (message: SseMessage) => void;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; contentType: string | null; messages: SseMessage[] }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...options.headers },
    signal: controller.signal,
  });
  const messages: SseMessage[] = [];
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: response.status, contentType: response.headers.get('content-type'), messages };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const message = parseFrame(frame);
        if (!message) continue;
        messages.push(message);
        options.onMessage?.(message);
        if (options.stopWhen?.(message)) {
          controller.abort();
          return { status: response.status, contentType: response.headers.get('content-type'), messages };
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), messages };
}

export function parseFrame(frame: string): SseMessage | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) continue;
    if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (!data.length) return undefined;
  return id === undefined
    ? { event, data: JSON.parse(data.join('\n')) }
    : { event, id, data: JSON.parse(data.join('\n')) };
}

/** A small Server-Sent Events reader over fetch, for the live order status tests and the bench. */

export interface SseMessage {
  id?: string;
  event: string;
  data: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The JSON body of a refusal (status ≠ 200). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely
  body?: any;
  messages: SseMessage[];
  /** Comment lines received (heartbeats). */
  comments: string[];
  /** True once the server ended the stream. */
  ended: boolean;
  /** Resolves with the messages once `predicate` holds for them (rejects after `timeoutMs`). */
  until(
    predicate: (messages: SseMessage[]) => boolean,
    timeoutMs?: number,
    what?: string,
  ): Promise<SseMessage[]>;
  close(): void;
}

export async function openSse(
  url: string,
  opts: { token?: string; lastEventId?: string; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
  const res = await fetch(url, { headers, signal: controller.signal });
  const waiters = new Set<() => void>();
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    messages: [],
    comments: [],
    ended: false,
    until: (predicate, timeoutMs = 5_000, what = 'messages') =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(stream.messages)) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(stream.messages);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for ${what}; got ${JSON.stringify(stream.messages)}`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    close: () => controller.abort(),
  };
  if (res.status !== 200) {
    const text = await res.text();
    stream.body = text ? JSON.parse(text) : undefined;
    stream.ended = true;
    return stream;
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          parseBlock(buffer.slice(0, end), stream);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        for (const waiter of [...waiters]) waiter();
      }
    } catch {
      // aborted
    }
    stream.ended = true;
    for (const waiter of [...waiters]) waiter();
  })();
  return stream;
}

function parseBlock(block: string, stream: SseStream): void {
  const message: SseMessage = { event: 'message', data: '', at: Date.now() };
  let fields = 0;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      stream.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'id') message.id = value;
    else if (name === 'event') message.event = value;
    else if (name === 'data') message.data = message.data ? `${message.data}\n${value}` : value;
    else continue;
    fields += 1;
  }
  if (fields > 0 && (message.data !== '' || message.event !== 'message')) stream.messages.push(message);
}

/** The `order` events' data. */
export const orderEvents = (messages: SseMessage[]) =>
  messages.filter((m) => m.event === 'order').map((m) => JSON.parse(m.data) as Record<string, unknown>);

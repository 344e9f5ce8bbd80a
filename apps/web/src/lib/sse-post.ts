/** One Server-Sent Events message: its `event:` name (default `message`) and its `data:` parsed as JSON. */
export interface SseMessage {
  event: string;
  data: unknown;
}

/**
 * POSTs JSON and reads the answer as Server-Sent Events (EventSource can only GET), calling
 * `onMessage` for every message as it arrives. A refusal before the stream (a JSON error with a
 * 4xx status) throws its message.
 */
export async function postEventStream(url: string, body: unknown, onMessage: (message: SseMessage) => void, signal?: AbortSignal): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  if (!response.ok || !response.body) {
    const payload = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(payload?.error?.message ?? `The server answered ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) onMessage({ event, data: JSON.parse(data.join('\n')) as unknown });
    }
  }
}

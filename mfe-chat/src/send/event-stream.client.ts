import { fetchEventSource } from '@microsoft/fetch-event-source';
import type { FetchLike } from './ai-fetch.js';
import { STREAM_TEXTS, StreamError, bodyText, failedToStartStream, httpError } from './stream-errors.js';

export interface EventStreamRequest {
  path: string;
  body: unknown;
  signal: AbortSignal;
  fetch: FetchLike;
  /** Each `data:` event's text; return true when it finished the stream. */
  onData(data: string): boolean;
  /** A JSON reply where a stream was asked for (spec 02 §7: "a JSON reply is also handled"). */
  onJson(json: unknown): void;
}

/** Ends the read once the stream said it finished; fetch-event-source resolves on abort. */
class Finished extends Error {}

/**
 * POSTs `body` and reads the Server-Sent Events of the reply until one says it finished, the
 * server closes, or `signal` aborts (Stop). Never retries: a failure rejects with the spec's text.
 */
export async function readEventStream(request: EventStreamRequest): Promise<void> {
  const inner = new AbortController();
  const abort = () => inner.abort();
  request.signal.addEventListener('abort', abort);
  let opened = false;
  try {
    await fetchEventSource(request.path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(request.body),
      signal: inner.signal,
      // The panel reads the stream to its end even in a hidden tab.
      openWhenHidden: true,
      fetch: request.fetch as typeof fetch,
      async onopen(response) {
        opened = true;
        if (!response.ok) throw new StreamError(httpError(response.status, bodyText(await response.text())));
        if (!response.body) throw new StreamError(STREAM_TEXTS.noBody);
        const type = response.headers.get('content-type') ?? '';
        if (type.includes('application/json')) {
          request.onJson(await response.clone().json());
          throw new Finished();
        }
        if (!type.includes('text/event-stream')) throw new StreamError(httpError(response.status, `unexpected content type ${type || 'none'}`));
      },
      onmessage(event) {
        if (event.data === '') return;
        if (request.onData(event.data)) throw new Finished();
      },
      onclose() {
        // The server closed without a finishing event: what arrived stands, nothing more comes.
      },
      onerror(error: unknown) {
        // Rethrown: fetch-event-source would otherwise retry the POST.
        throw error;
      },
    });
  } catch (error) {
    if (error instanceof Finished) return;
    if (error instanceof StreamError) throw error;
    if (request.signal.aborted) return;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StreamError(opened ? `${STREAM_TEXTS.readError}: ${reason}` : failedToStartStream(reason));
  } finally {
    request.signal.removeEventListener('abort', abort);
    inner.abort();
  }
}

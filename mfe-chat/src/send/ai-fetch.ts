import type { ShellContext } from '@tessera/contracts';

/** The `fetch` fetch-event-source calls: a URL and the init it builds (method, headers, body, signal). */
export type FetchLike = (input: string, init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<Response>;

interface StreamReply {
  status: number;
  statusText?: string;
  headers: unknown;
  data: unknown;
}

/** The axios reply as a fetch Response: its status, headers, and the body stream as it arrives. */
function toResponse(reply: StreamReply): Response {
  const raw = reply.headers as { toJSON?: () => Record<string, unknown> } | Record<string, unknown>;
  const plain = (typeof raw.toJSON === 'function' ? raw.toJSON() : raw) as Record<string, unknown>;
  const headers = new Headers();
  for (const [name, value] of Object.entries(plain)) if (value !== undefined && value !== null) headers.set(name, String(value));
  // 204/304 carry no body; any other status hands its stream on.
  const body = reply.status === 204 || reply.status === 304 ? null : (reply.data as ReadableStream<Uint8Array> | null);
  return new Response(body, { status: reply.status, statusText: reply.statusText, headers });
}

/**
 * A fetch through the shell's authenticated ai client (remotes never read tokens): axios'
 * fetch adapter with `responseType: 'stream'` hands back the body stream, which
 * fetch-event-source reads as it arrives. The client's 401 refresh still applies; any other
 * non-OK status comes back as a Response so the caller reads its status and body.
 */
export function aiFetch(ai: ShellContext['ai']): FetchLike {
  return async (url, init) => {
    try {
      const reply = await ai.request({
        url,
        method: init.method ?? 'GET',
        headers: init.headers,
        data: init.body,
        signal: init.signal,
        adapter: 'fetch',
        responseType: 'stream',
      });
      return toResponse(reply);
    } catch (error) {
      const response = (error as { response?: StreamReply } | null)?.response;
      if (response && typeof response.status === 'number') return toResponse(response);
      throw error;
    }
  };
}

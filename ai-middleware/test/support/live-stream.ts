import { type HybridStreamEvent, HybridStreamEventSchema } from '@tessera/contracts';

/** A /hybrid stream read as it comes, so a test can act between events (close it while queued or running). */
export interface LiveStream {
  status: number;
  readonly events: HybridStreamEvent[];
  /** The first event (already read or still to come) that matches; rejects if the stream ends without one. */
  next(match: (event: HybridStreamEvent) => boolean): Promise<HybridStreamEvent>;
  /** Resolves with every event once the server ends the stream. */
  done: Promise<HybridStreamEvent[]>;
  /** The client goes away (Stop, a closed tab). */
  close(): void;
}

export async function openStream(url: string, token: string, body: unknown): Promise<LiveStream> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const events: HybridStreamEvent[] = [];
  const waiters: Array<{ match: (e: HybridStreamEvent) => boolean; resolve: (e: HybridStreamEvent) => void; reject: (err: Error) => void }> = [];
  let ended = false;
  const done = (async () => {
    if (!res.body) return events;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.startsWith('data: ')) continue;
          const event = HybridStreamEventSchema.parse(JSON.parse(block.slice('data: '.length)));
          events.push(event);
          for (const w of waiters.filter((x) => x.match(event))) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(event);
          }
        }
      }
    } catch {
      // closed by the test
    }
    ended = true;
    for (const w of waiters.splice(0)) w.reject(new Error(`the stream ended without the event; it sent: ${JSON.stringify(events.map((e) => e.text))}`));
    return events;
  })();
  done.catch(() => {});
  return {
    status: res.status,
    events,
    next(match) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      if (ended) return Promise.reject(new Error('the stream has ended'));
      return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
    },
    done,
    close: () => controller.abort(),
  };
}

/** The sum of a /metrics series' samples whose labels include `labels` (0 when none), e.g. ('code_runner_job_duration_seconds_count', {outcome: 'stopped'}). */
export async function metricValue(base: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum += Number(match[3]);
  }
  return sum;
}

/** Polls until the condition holds (the test's own timeout bounds it: no timing is asserted). */
export async function eventually(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

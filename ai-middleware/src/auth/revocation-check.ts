import { TOKEN_REVOCATION_CHECK_MS } from '@tessera/contracts';

/** The api said the token is no longer honoured (user deleted, password changed). */
export class TokenRevokedError extends Error {
  override name = 'TokenRevokedError';
}

/** The api could not be asked (down, 5xx): the token can be judged neither way. */
export class RevocationCheckUnavailableError extends Error {
  override name = 'RevocationCheckUnavailableError';
}

export interface RevocationCheckOptions {
  /** The api's GET /api/v1/auth/session. */
  sessionUrl: URL;
  ttlMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
  maxEntries?: number;
}

export type RevocationCheck = (token: string, cacheKey: string) => Promise<void>;

/**
 * Asks the api whether a signature-valid token is still honoured, by calling its
 * GET /auth/session with that token (the api checks the user's token epoch). Answers are
 * cached per key (user id and token epoch) for at most ttlMs, so a revocation on the api
 * reaches this service within that time (60 s); concurrent checks of one key share a request.
 */
export function createRevocationCheck(opts: RevocationCheckOptions): RevocationCheck {
  const ttl = opts.ttlMs ?? TOKEN_REVOCATION_CHECK_MS;
  const now = opts.now ?? Date.now;
  const doFetch = opts.fetch ?? fetch;
  const maxEntries = opts.maxEntries ?? 10_000;
  const answers = new Map<string, { ok: boolean; until: number }>();
  const inflight = new Map<string, Promise<boolean>>();

  async function ask(token: string): Promise<boolean> {
    let res: Response;
    try {
      res = await doFetch(opts.sessionUrl, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(5000),
      });
    } catch (err) {
      throw new RevocationCheckUnavailableError(`cannot reach the api at ${opts.sessionUrl.href}`, { cause: err });
    }
    await res.body?.cancel();
    if (res.status === 200) return true;
    if (res.status === 401) return false;
    throw new RevocationCheckUnavailableError(`the api answered ${res.status} at ${opts.sessionUrl.href}`);
  }

  return async (token, key) => {
    const cached = answers.get(key);
    let ok: boolean;
    if (cached && cached.until > now()) {
      ok = cached.ok;
    } else {
      let pending = inflight.get(key);
      if (!pending) {
        pending = ask(token).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      ok = await pending;
      answers.delete(key);
      if (answers.size >= maxEntries) {
        const oldest = answers.keys().next().value;
        if (oldest !== undefined) answers.delete(oldest);
      }
      answers.set(key, { ok, until: now() + ttl });
    }
    if (!ok) throw new TokenRevokedError('the api no longer honours this token');
  };
}

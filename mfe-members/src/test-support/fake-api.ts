import { json, startLoopbackServer } from '@tessera/jest-react/loopback';
import type { ServerResponse } from 'node:http';
import { type ActivityEntry, ActivityQuerySchema, type ApiToken, API_TOKENS_PATH, CreateApiTokenBodySchema, type User } from '@tessera/contracts';

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeApi {
  url: string;
  users: User[];
  /** The activity log, in any order (GET /api/v1/activity sorts it newest first by id). */
  activity: ActivityEntry[];
  /** The signed-in member's personal API tokens (POST/GET/DELETE under API_TOKENS_PATH, as the api answers). */
  apiTokens: ApiToken[];
  calls: RecordedCall[];
  /** Answers the next matching call (of this method, and under this path if given) with this status and error message instead. */
  failNext(method: string, status: number, message: string, path?: string): void;
  close(): Promise<void>;
}


/** GET /api/v1/activity as the api answers it: the contracts' query schema, newest first by id, paged by `before`. */
function activityPage(res: ServerResponse, path: string, activity: ActivityEntry[]) {
  const query = ActivityQuerySchema.safeParse(Object.fromEntries(new URL(path, 'http://api').searchParams));
  if (!query.success) return json(res, 400, { error: { code: 'validation_error', message: query.error.issues[0].message } });
  const q = query.data;
  const matching = activity
    .filter((e) => (!q.user_id || e.actor.id === q.user_id) && (!q.item_id || e.item?.id === q.item_id) && (!q.kind || e.kind === q.kind))
    .filter((e) => q.before === undefined || Number(e.id) < q.before)
    .sort((a, b) => Number(b.id) - Number(a.id));
  const entries = matching.slice(0, q.limit);
  return json(res, 200, { entries, next_before: matching.length > q.limit ? Number(entries[entries.length - 1].id) : null });
}

/** The api's token routes, validated with the same contract: the reply to a create holds the token once. */
function apiTokenRoutes(res: ServerResponse, method: string, path: string, body: unknown, tokens: ApiToken[]) {
  if (method === 'GET' && path === API_TOKENS_PATH) return json(res, 200, { tokens: [...tokens].reverse() });
  if (method === 'POST' && path === API_TOKENS_PATH) {
    const parsed = CreateApiTokenBodySchema.safeParse(body);
    if (!parsed.success) return json(res, 400, { error: { code: 'validation_failed', message: parsed.error.issues[0].message } });
    const n = tokens.length + 1;
    const lookup = n.toString(16).padStart(12, '0');
    const now = Date.now();
    const token: ApiToken = {
      id: `00000000-0000-4000-8000-${lookup}`,
      name: parsed.data.name,
      prefix: `tsr_${lookup}`,
      scope: parsed.data.scope,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + parsed.data.expires_in_days * 86_400_000).toISOString(),
      last_used_at: null,
      revoked_at: null,
    };
    tokens.push(token);
    return json(res, 201, { ...token, token: `tsr_${lookup}_${'S'.repeat(42)}${n % 10}` });
  }
  const token = tokens.find((t) => `${API_TOKENS_PATH}/${t.id}` === path);
  if (method === 'DELETE' && token) {
    token.revoked_at ??= new Date().toISOString();
    return json(res, 200, token);
  }
  return json(res, 404, { error: { code: 'not_found', message: 'API token not found' } });
}

/**
 * A loopback server (tooling/jest-react) with the users routes of the api, holding its users in
 * memory; the components reach it through a real axios client. It records every call.
 */
export async function startFakeApi(initial: User[], activity: ActivityEntry[] = []): Promise<FakeApi> {
  const users = initial.map((u) => ({ ...u }));
  const apiTokens: ApiToken[] = [];
  const calls: RecordedCall[] = [];
  const failures: { method: string; status: number; message: string; path?: string }[] = [];
  const server = await startLoopbackServer((req, res) => {
    const { body, method, url: path } = req;
    calls.push({ method, path, body });
    const failure = failures.findIndex((f) => f.method === method && (f.path === undefined || path.startsWith(f.path)));
    if (failure >= 0) {
      const [f] = failures.splice(failure, 1);
      return json(res, f.status, { error: { code: 'forbidden', message: f.message } });
    }
    if (path.startsWith(API_TOKENS_PATH)) return apiTokenRoutes(res, method, path, body, apiTokens);
    const id = decodeURIComponent(path.split('/')[4] ?? '');
    const index = users.findIndex((u) => u.id === id);
    if (method === 'GET' && path === '/api/v1/users') return json(res, 200, users);
    if (method === 'GET' && path.startsWith('/api/v1/activity')) return activityPage(res, path, activity);
    if (method === 'POST' && path === '/api/v1/users') {
      const b = body as { username: string; role: User['role']; email?: string; nickname?: string };
      const user: User = { id: `u-${users.length + 1}`, username: b.username, role: b.role, email: b.email ?? null, nickname: b.nickname ?? null };
      users.push(user);
      return json(res, 201, user);
    }
    if (method === 'PUT' && index >= 0) {
      const { password: _password, ...changes } = body as Record<string, unknown>;
      Object.assign(users[index], changes);
      return json(res, 200, users[index]);
    }
    if (method === 'DELETE' && index >= 0) {
      users.splice(index, 1);
      return json(res, 204);
    }
    if (method === 'POST' && path === '/api/v1/auth/change-password') return json(res, 204);
    return json(res, 404, { error: { code: 'not_found', message: 'User not found' } });
  });
  return {
    url: server.url,
    users,
    activity,
    apiTokens,
    calls,
    failNext: (method, status, message, path) => failures.push({ method, status, message, path }),
    close: server.close,
  };
}

import { REFRESH_COOKIE_NAME } from '@tessera/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const ADMIN = { username: 'Admin', password: 'correct horse battery', email: 'admin@example.com', nickname: 'Boss' };

export interface Session {
  accessToken: string;
  refreshCookie: string;
  userId: string;
}

/** The refresh token the response set, or undefined. */
export function refreshCookieOf(res: LightMyRequestResponse): string | undefined {
  const cookie = res.cookies.find((c) => c.name === REFRESH_COOKIE_NAME);
  return cookie?.value ? cookie.value : undefined;
}

function sessionOf(res: LightMyRequestResponse): Session {
  if (res.statusCode >= 300) throw new Error(`expected success, got ${res.statusCode}: ${res.body}`);
  const body = res.json() as { access_token: string; user: { id: string } };
  const refreshCookie = refreshCookieOf(res);
  if (!refreshCookie) throw new Error('no refresh cookie set');
  return { accessToken: body.access_token, refreshCookie, userId: body.user.id };
}

export function postJson(app: FastifyInstance, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, payload: payload as object, headers: { 'content-type': 'application/json', ...headers } });
}

export async function signupAdmin(app: FastifyInstance, body: object = ADMIN): Promise<Session> {
  return sessionOf(await postJson(app, '/api/v1/auth/signup', body));
}

export async function login(app: FastifyInstance, username = ADMIN.username, password = ADMIN.password): Promise<Session> {
  return sessionOf(await postJson(app, '/api/v1/auth/login', { username, password }));
}

export function refresh(app: FastifyInstance, refreshCookie?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    cookies: refreshCookie ? { [REFRESH_COOKIE_NAME]: refreshCookie } : {},
  });
}

export async function userCount(app: FastifyInstance): Promise<number> {
  const row = await app.db.selectFrom('users').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

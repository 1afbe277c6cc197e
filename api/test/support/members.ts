import crypto from 'node:crypto';
import type { Role } from '@tessera/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { PasswordService } from '../../src/auth/password.service.js';
import { login, type Session } from './auth-helpers.js';

const passwords = new PasswordService();
export const MEMBER_PASSWORD = 'member password 1';

/**
 * A member inserted straight into the database, with any role: the api refuses to create
 * host and superadmin users, so tests that need them make them here.
 */
export async function insertMember(
  app: FastifyInstance,
  role: Role,
  opts: { username?: string; password?: string } = {},
): Promise<{ id: string; username: string; password: string }> {
  const id = crypto.randomUUID();
  const username = opts.username ?? `${role}-${id.slice(0, 8)}`;
  const password = opts.password ?? MEMBER_PASSWORD;
  await app.db
    .insertInto('users')
    .values({ id, username, password_hash: await passwords.hash(password), role, email: null, nickname: null })
    .execute();
  return { id, username, password };
}

/** A member of the given role, signed in. */
export async function signedInMember(app: FastifyInstance, role: Role): Promise<Session & { username: string }> {
  const m = await insertMember(app, role);
  return { ...(await login(app, m.username, m.password)), username: m.username };
}

export function call(app: FastifyInstance, session: Session | string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  const token = typeof session === 'string' ? session : session.accessToken;
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

export async function userRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

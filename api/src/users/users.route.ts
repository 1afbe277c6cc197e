import {
  UserListSchema,
  UserSchema,
  CreateUserRequestSchema,
  ERROR_CODES,
  type MemberAction,
  type MemberActor,
  UpdateUserBodySchema,
  type User,
  memberRefusal,
} from '@tessera/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { actorOf as activityActor } from '../activity/activity.routes.js';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { AppServices, ServicesOptions } from '../services.js';
import { toPublicUser } from './user.mapper.js';
import type { MemberPatch } from './users.repository.js';
import { withDoc } from '../openapi/route-doc.js';

const IdSchema = z.uuid();
/** Documents the path (an id that is not a uuid is a 404 here, like an unknown one). */
const UserIdParamsSchema = z.object({ id: IdSchema });
const NOT_FOUND = () => new HttpError(404, ERROR_CODES.notFound, 'User not found');

/** The caller as the database knows them now: their role there, not the token's, decides. */
async function actorOf(services: AppServices, request: FastifyRequest): Promise<MemberActor> {
  const me = currentUser(request);
  const row = await services.users.findById(me.id);
  if (!row) throw HttpError.unauthorized('Account no longer exists');
  return { id: row.id, role: row.role };
}

/** A member as an activity entry names it (username at the time). */
const memberItem = (row: { id: string; username: string }) => ({ type: 'user' as const, id: row.id, name: row.username });

function allow(actor: MemberActor, action: MemberAction): void {
  const reason = memberRefusal(actor, action);
  if (reason) throw HttpError.forbidden(reason);
}

/**
 * /api/v1/users (spec 01 §7): the list for any signed-in user; create, edit, password reset,
 * promote and delete under the rules of ./member-policy.ts.
 */
export const usersRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const { users } = services;

  app.get('/', withDoc({ summary: 'The members', tag: 'Members', responses: { 200: UserListSchema } }), async (): Promise<User[]> => (await users.list()).map(toPublicUser));

  app.post('/', withDoc({ summary: 'Add a member (admins)', tag: 'Members', body: CreateUserRequestSchema, responses: { 201: UserSchema } }), async (request, reply) => {
    const actor = await actorOf(services, request);
    const body = validate(CreateUserRequestSchema, request.body);
    allow(actor, { kind: 'create', role: body.role });
    const created = await users.create({
      username: body.username,
      passwordHash: await services.passwords.hash(body.password),
      email: body.email,
      nickname: body.nickname,
      role: body.role,
    });
    if (!created) throw HttpError.conflict(`Username "${body.username}" is already taken`);
    request.log.info({ userId: created.id, by: actor.id, role: created.role }, 'member created');
    await services.activity.append(activityActor(request), { kind: 'member_created', item: memberItem(created), detail: { role: created.role } });
    return reply.code(201).send(toPublicUser(created));
  });

  app.put<{ Params: { id: string } }>('/:id', withDoc({ summary: 'Change a member: details, password reset, promotion', tag: 'Members', params: UserIdParamsSchema, body: UpdateUserBodySchema, responses: { 200: UserSchema } }), async (request) => {
    const actor = await actorOf(services, request);
    const body = validate(UpdateUserBodySchema, request.body);
    const id = request.params.id;
    // A member who is not admin-like learns nothing about other ids.
    if (id !== actor.id) allow(actor, { kind: 'editInfo', target: { id, role: 'user' } });
    const target = IdSchema.safeParse(id).success ? await users.findById(id) : undefined;
    if (!target) throw NOT_FOUND();
    if (body.nickname !== undefined || body.email !== undefined) allow(actor, { kind: 'editInfo', target });
    if (body.password !== undefined) allow(actor, { kind: 'setPassword', target });
    if (body.role !== undefined) allow(actor, { kind: 'promote', target });

    const patch: MemberPatch = { nickname: body.nickname, email: body.email, role: body.role };
    if (body.password !== undefined) patch.passwordHash = await services.passwords.hash(body.password);
    const updated = await users.update(target.id, patch);
    if (!updated) throw NOT_FOUND();
    if (patch.passwordHash) {
      // A reset password ends every session of that member, and their access tokens at once.
      await services.refreshTokens.revokeAllForUser(target.id);
    }
    // A new password or role (the repository raised the epoch): tokens of the old one stop, and
    // the member's open sockets close (a session still valid reconnects with a refreshed token).
    if (updated.token_epoch !== target.token_epoch) services.tokenEpochs.changed(target.id);
    request.log.info({ userId: target.id, by: actor.id, fields: Object.keys(body) }, 'member updated');
    if (patch.passwordHash) await services.activity.append(activityActor(request), { kind: 'password_reset', item: memberItem(updated) });
    if (updated.role !== target.role) {
      await services.activity.append(activityActor(request), { kind: 'role_changed', item: memberItem(updated), detail: { from: target.role, to: updated.role } });
    }
    return toPublicUser(updated);
  });

  app.delete<{ Params: { id: string } }>('/:id', withDoc({ summary: 'Delete a member (admins)', tag: 'Members', params: UserIdParamsSchema, responses: { 204: { description: 'Deleted' } } }), async (request, reply) => {
    const actor = await actorOf(services, request);
    const id = request.params.id;
    if (id !== actor.id) allow(actor, { kind: 'delete', target: { id, role: 'user' } });
    const target = IdSchema.safeParse(id).success ? await users.findById(id) : undefined;
    if (!target) throw NOT_FOUND();
    allow(actor, { kind: 'delete', target });
    if (!(await users.delete(target.id))) throw NOT_FOUND();
    services.tokenEpochs.changed(target.id);
    request.log.info({ userId: target.id, by: actor.id }, 'member deleted');
    await services.activity.append(activityActor(request), { kind: 'member_deleted', item: memberItem(target), detail: { role: target.role } });
    return reply.code(204).send();
  });
};

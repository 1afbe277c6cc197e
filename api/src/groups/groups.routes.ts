import { CreateGroupBodySchema, type DeleteResult, DeleteResultSchema, GroupListQuerySchema, GroupListSchema, GroupSchema, GroupTreeSchema, UpdateGroupBodySchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { onGroup } from '../access/access-guard.js';
import { actorOf } from '../activity/activity.routes.js';
import { currentUser } from '../http/auth-guard.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { withDoc } from '../openapi/route-doc.js';

const GroupIdParamsSchema = z.object({ id: z.uuid({ error: 'Invalid group id' }) });

/** {api}/groups: CRUD, list by parent, and the navigation tree — each with the caller's access. */
export const groupsRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const { groups, access } = services;

  app.post('/', withDoc({ summary: 'Create a group', tag: 'Groups', body: CreateGroupBodySchema, responses: { 201: GroupSchema } }), async (request, reply) => {
    const body = validate(CreateGroupBodySchema, request.body ?? {});
    const user = currentUser(request);
    await access.requirePlace(user, body.parent_id ?? null);
    return reply.code(201).send(await groups.create(body, user.id));
  });

  app.get('/', withDoc({ summary: 'List groups (by parent)', tag: 'Groups', query: GroupListQuerySchema, responses: { 200: GroupListSchema } }), async (request) => groups.list(validate(GroupListQuerySchema, request.query), await access.visibility(currentUser(request))));

  // Sent as the text the service put together (a GroupTree): nothing to encode again.
  app.get('/tree', withDoc({ summary: "The navigator's tree: groups and sheets one can see", tag: 'Groups', responses: { 200: GroupTreeSchema } }), async (request, reply) => reply.type('application/json; charset=utf-8').send(await groups.treeJson(currentUser(request), access)));

  app.get('/:id', withDoc({ summary: 'A group', tag: 'Groups', params: GroupIdParamsSchema, responses: { 200: GroupSchema } }, onGroup('view')), async (request) => ({
    ...(await groups.get(validate(GroupIdParamsSchema, request.params).id)),
    access: request.accessLevel ?? undefined,
  }));

  app.put('/:id', withDoc({ summary: 'Change a group', tag: 'Groups', params: GroupIdParamsSchema, body: UpdateGroupBodySchema, responses: { 200: GroupSchema } }, onGroup('edit')), async (request) => {
    const { id } = validate(GroupIdParamsSchema, request.params);
    const body = validate(UpdateGroupBodySchema, request.body);
    const user = currentUser(request);
    if (body.parent_id !== undefined) await access.requirePlace(user, body.parent_id);
    return groups.update(id, body, user.id);
  });

  // To the trash (owners), with everything under it.
  app.delete('/:id', withDoc({ summary: 'Move a group and everything in it to the trash (owners)', tag: 'Groups', params: GroupIdParamsSchema, responses: { 200: DeleteResultSchema } }), async (request): Promise<DeleteResult> => {
    const { id } = validate(GroupIdParamsSchema, request.params);
    await services.trash.trashGroup(actorOf(request), id);
    return { status: 'deleted', id };
  });
};

import { CreateGroupBodySchema, type DeleteResult, GroupListQuerySchema, UpdateGroupBodySchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../http/auth-guard.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';

const GroupIdParamsSchema = z.object({ id: z.uuid({ error: 'Invalid group id' }) });

/** {api}/groups: CRUD, list by parent, and the navigation tree. */
export const groupsRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const groups = services.groups;

  app.post('/', async (request, reply) => reply.code(201).send(await groups.create(validate(CreateGroupBodySchema, request.body ?? {}), currentUser(request).id)));

  app.get('/', async (request) => groups.list(validate(GroupListQuerySchema, request.query)));

  app.get('/tree', async (request) => groups.tree(currentUser(request).id));

  app.get('/:id', async (request) => groups.get(validate(GroupIdParamsSchema, request.params).id));

  app.put('/:id', async (request) => {
    const { id } = validate(GroupIdParamsSchema, request.params);
    return groups.update(id, validate(UpdateGroupBodySchema, request.body), currentUser(request).id);
  });

  app.delete('/:id', async (request): Promise<DeleteResult> => {
    const { id } = validate(GroupIdParamsSchema, request.params);
    await groups.delete(id, currentUser(request).id);
    return { status: 'deleted', id };
  });
};

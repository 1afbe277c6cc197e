import { type RestoreResult, TrashIdParamsSchema, type TrashList } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { actorOf } from '../activity/activity.routes.js';
import { currentUser } from '../http/auth-guard.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';

/** {api}/trash: what the member may restore; restore; delete forever (owners). */
export const trashRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/', async (request): Promise<TrashList> => ({ items: await services.trash.list(currentUser(request)) }));

  app.post('/:id/restore', async (request): Promise<RestoreResult> => {
    const { id } = validate(TrashIdParamsSchema, request.params);
    return services.trash.restore(actorOf(request), id);
  });

  app.delete('/:id', async (request) => {
    const { id } = validate(TrashIdParamsSchema, request.params);
    await services.trash.purge(actorOf(request), id);
    return { status: 'deleted', id };
  });
};

import { DeleteResultSchema, type RestoreResult, RestoreResultSchema, TrashIdParamsSchema, type TrashList, TrashListSchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { actorOf } from '../activity/activity.routes.js';
import { currentUser } from '../http/auth-guard.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import type { TrashService } from './trash.service.js';
import { withDoc } from '../openapi/route-doc.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The trash; tests run its retention purge. */
    trash: TrashService;
  }
}

/** How often the api looks for items past TRASH_RETENTION_DAYS. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** {api}/trash: what the member may restore; restore; delete forever (owners). Purges what waited too long, hourly. */
export const trashRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const purge = () => {
    services.trash.purgeExpired().catch((err) => app.log.error({ err }, 'trash: purging expired items failed'));
  };
  const timer = setInterval(purge, PURGE_EVERY_MS);
  timer.unref();
  app.addHook('onReady', async () => purge());
  app.addHook('onClose', async () => clearInterval(timer));

  app.get('/', withDoc({ summary: 'What one may restore from the trash', tag: 'Trash', responses: { 200: TrashListSchema } }), async (request): Promise<TrashList> => ({ items: await services.trash.list(currentUser(request)) }));

  app.post('/:id/restore', withDoc({ summary: 'Restore an item', tag: 'Trash', params: TrashIdParamsSchema, responses: { 200: RestoreResultSchema } }), async (request): Promise<RestoreResult> => {
    const { id } = validate(TrashIdParamsSchema, request.params);
    return services.trash.restore(actorOf(request), id);
  });

  app.delete('/:id', withDoc({ summary: 'Delete an item forever (owners)', tag: 'Trash', params: TrashIdParamsSchema, responses: { 200: DeleteResultSchema } }), async (request) => {
    const { id } = validate(TrashIdParamsSchema, request.params);
    await services.trash.purge(actorOf(request), id);
    return { status: 'deleted', id };
  });
};

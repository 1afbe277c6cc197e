import { SharingStateSchema, UpdateSharingBodySchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../activity/activity.routes.js';
import { currentUser } from '../http/auth-guard.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { withDoc } from '../openapi/route-doc.js';

const SheetParams = z.object({ id: z.uuid({ error: 'Invalid sheet id' }) });
const GroupParams = z.object({ id: z.uuid({ error: 'Invalid group id' }) });

/**
 * {api}/sheets/:id/access and {api}/groups/:id/access: who has which level, directly or through a
 * parent group (anyone who can see the item), and the owners' changes to it.
 */
export const sharingRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  for (const [type, params] of [
    ['sheet', SheetParams],
    ['group', GroupParams],
  ] as const) {
    const base = type === 'sheet' ? '/sheets/:id/access' : '/groups/:id/access';

    app.get(base, withDoc({ summary: `Who has which level on a ${type}`, tag: 'Sharing', params, responses: { 200: SharingStateSchema } }), async (request) => services.access.sharing(currentUser(request), { type, id: validate(params, request.params).id }));

    app.put(base, withDoc({ summary: `Change who has which level on a ${type} (owners)`, tag: 'Sharing', params, body: UpdateSharingBodySchema, responses: { 200: SharingStateSchema } }), async (request) => {
      const { id } = validate(params, request.params);
      const body = validate(UpdateSharingBodySchema, request.body);
      const actor = actorOf(request);
      const item = { type, id };
      const change = await services.db.transaction().execute(async (trx) => {
        const change = await services.access.setSharing(actor.user, item, body, trx);
        await services.activity.append(actor, { kind: 'access_changed', item: { type, id, name: change.name }, detail: { before: change.before, after: change.after } }, trx);
        return change;
      });
      // Open sockets review their level; navigators refresh (those who lost it see it go).
      await services.accessChanges.announce(item, actor.user.id);
      if (type === 'sheet') services.sheets.announce('sheet_updated', { id, name: change.name, group_id: change.parentId }, actor.user.id);
      else services.groups.navigation.emit({ type: 'group_updated', id, userId: actor.user.id, name: change.name, parentId: change.parentId });
      return services.access.sharing(actor.user, item);
    });
  }
};

import {
  type ItemResult,
  ItemResultSchema,
  MoveItemBodySchema,
  RenameItemBodySchema,
  RenameItemParamsSchema,
  GroupNameSchema,
  SheetNameSchema,
} from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../http/auth-guard.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { withDoc } from '../openapi/route-doc.js';

/** {api}/items: moving and renaming a sheet or group from the navigator, one call for either type. */
export const itemsRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.post('/move', withDoc({ summary: 'Move a sheet or group', tag: 'Items', body: MoveItemBodySchema, responses: { 200: ItemResultSchema } }), async (request): Promise<ItemResult> => {
    const { item, target } = validate(MoveItemBodySchema, request.body);
    const user = currentUser(request);
    const userId = user.id;
    // Moving takes editing the item and the place it goes to.
    await services.access.require(user, item, 'edit');
    await services.access.requirePlace(user, target.group_id);
    if (item.type === 'sheet') {
      const s = await services.sheets.update(item.id, { group_id: target.group_id, position: target.position }, userId);
      return { type: 'sheet', id: s.id, name: s.name, parent_id: s.group_id };
    }
    const g = await services.groups.update(item.id, { parent_id: target.group_id, position: target.position }, userId);
    return { type: 'group', id: g.id, name: g.name, parent_id: g.parent_id };
  });

  app.put('/:type/:id/rename', withDoc({ summary: 'Rename a sheet or group', tag: 'Items', params: RenameItemParamsSchema, body: RenameItemBodySchema, responses: { 200: ItemResultSchema } }), async (request): Promise<ItemResult> => {
    const { type, id } = validate(RenameItemParamsSchema, request.params);
    const { name: raw } = validate(RenameItemBodySchema, request.body);
    await services.access.require(currentUser(request), { type, id }, 'edit');
    if (type === 'sheet') {
      const s = await services.sheets.update(id, { name: validate(SheetNameSchema, raw) }, currentUser(request).id);
      return { type, id, name: s.name, parent_id: s.group_id };
    }
    const g = await services.groups.update(id, { name: validate(GroupNameSchema, raw) }, currentUser(request).id);
    return { type, id, name: g.name, parent_id: g.parent_id };
  });
};

import {
  CellPatchBodySchema,
  CreateSheetBodySchema,
  type DeleteResult,
  ERROR_CODES,
  type FavoriteToggleResult,
  SheetListQuerySchema,
  UpdateSheetBodySchema,
} from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { SheetIdParamsSchema } from './sheet-params.js';
import { requireColumnsOfBody } from './sheet-size.js';

/** A full grid of a large sheet is far beyond the api's JSON default; only these routes take one. */
export const SHEET_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/** {api}/sheets: CRUD, list, cell patches, duplicate and the favorite toggle. */
export const sheetsRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const sheets = services.sheets;

  app.post('/', { bodyLimit: SHEET_BODY_LIMIT_BYTES }, async (request, reply) => {
    requireColumnsOfBody(request.body);
    const body = validate(CreateSheetBodySchema, request.body ?? {});
    return reply.code(201).send(await sheets.create(body, currentUser(request).id));
  });

  app.get('/', async (request) => sheets.list(validate(SheetListQuerySchema, request.query), currentUser(request).id));

  app.get('/:id', async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    // Sent as text: the grid is spliced in from storage without a parse and re-serialisation.
    return reply.type('application/json; charset=utf-8').send(await sheets.getJson(id, currentUser(request).id));
  });

  app.put('/:id', { bodyLimit: SHEET_BODY_LIMIT_BYTES }, async (request) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    requireColumnsOfBody(request.body);
    return sheets.update(id, validate(UpdateSheetBodySchema, request.body), currentUser(request).id);
  });

  app.patch('/:id/cells', async (request) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    return sheets.patchCells(id, validate(CellPatchBodySchema, request.body), currentUser(request).id);
  });

  app.delete('/:id', async (request): Promise<DeleteResult> => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    await sheets.delete(id, currentUser(request).id);
    return { status: 'deleted', id };
  });

  app.post('/:id/duplicate', async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    try {
      return reply.code(201).send(await sheets.duplicate(id, currentUser(request).id));
    } catch (err) {
      if (err instanceof HttpError) throw err;
      request.log.error({ err }, 'duplicate failed');
      throw new HttpError(500, ERROR_CODES.internal, 'Failed to duplicate sheet');
    }
  });

  app.post('/:id/favorite', async (request): Promise<FavoriteToggleResult> => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    return { sheet_id: id, is_favorite: await sheets.toggleFavorite(id, currentUser(request).id) };
  });
};

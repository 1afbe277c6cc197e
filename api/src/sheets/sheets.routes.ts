import {
  CellPatchBodySchema,
  CellPatchResultSchema,
  DeleteResultSchema,
  FavoriteToggleResultSchema,
  FindQuerySchema,
  FindResultSchema,
  FILTER_BODY_MAX_BYTES,
  FilteredFindBodySchema,
  FILTER_COLUMNS_MAX,
  FILTER_TEXTS_MAX,
  FILTER_TEXTS_MAX_CHARS,
  FILTER_VALUES_SHOWN,
  SheetFilterBodySchema,
  SheetFilterResultSchema,
  SheetFilterValuesBodySchema,
  SheetFilterValuesResultSchema,
  SheetListSchema,
  SheetSchema,
  SheetSummarySchema,
  CreateSheetBodySchema,
  type DeleteResult,
  ERROR_CODES,
  type FavoriteToggleResult,
  SheetListQuerySchema,
  SheetOpenQuerySchema,
  SheetRowsQuerySchema,
  SheetRowsSchema,
  SHEET_READ_SLOT_MIN_BYTES,
  UpdateSheetBodySchema,
} from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { onSheet } from '../access/access-guard.js';
import { actorOf } from '../activity/activity.routes.js';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { SheetIdParamsSchema } from './sheet-params.js';
import { requireColumnsOfBody } from './sheet-size.js';
import { withDoc } from '../openapi/route-doc.js';

/** A full grid of a large sheet is far beyond the api's JSON default; only these routes take one. */
export const SHEET_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * {api}/sheets: CRUD, list, cell patches, duplicate and the favorite toggle. Each route on one
 * sheet declares the level it needs (onSheet); creating and moving need editing where the sheet lands.
 */
export const sheetsRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const { sheets, access } = services;

  app.post('/', withDoc({ summary: 'Create a sheet', tag: 'Sheets', body: CreateSheetBodySchema, responses: { 201: SheetSchema } }, { bodyLimit: SHEET_BODY_LIMIT_BYTES, onRequest: services.slots.beforeLargeBody('save') }), async (request, reply) => {
    requireColumnsOfBody(request.body);
    const body = validate(CreateSheetBodySchema, request.body ?? {});
    const user = currentUser(request);
    await access.requirePlace(user, body.group_id ?? null);
    return reply.code(201).send(await sheets.create(body, user.id));
  });

  app.get('/', withDoc({ summary: 'List the sheets one can see', tag: 'Sheets', query: SheetListQuerySchema, responses: { 200: SheetListSchema } }), async (request) => {
    const user = currentUser(request);
    return sheets.list(validate(SheetListQuerySchema, request.query), user.id, await access.visibility(user));
  });

  app.get('/:id', withDoc({ summary: 'A sheet with its grid', description: 'With window=N (1 to SHEET_ROWS_WINDOW_MAX, 5,000), a sheet a client shows a window at a time (at least WINDOWED_SHEET_MIN_ROWS rows, no formulas; its charts read their ranges through windows of rows) comes with only its first N rows and windowed: true; any other sheet comes whole.', tag: 'Sheets', params: SheetIdParamsSchema, query: SheetOpenQuerySchema, responses: { 200: SheetSchema } }, onSheet('view')), async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const { window } = validate(SheetOpenQuerySchema, request.query);
    // A large sheet answered whole holds its whole text until the reply is done: a slot, taken once its size is known (a windowed answer takes none).
    const whole = (bytes: number) => bytes >= SHEET_READ_SLOT_MIN_BYTES && services.slots.hold('sheet read', request, reply);
    // Sent as text: the grid is spliced in from storage without a parse and re-serialisation.
    return reply.type('application/json; charset=utf-8').send(await sheets.getJson(id, currentUser(request).id, request.accessLevel ?? undefined, window, whole));
  });

  app.get('/:id/rows', withDoc({ summary: 'A window of a sheet\'s rows, with its version and size', description: 'Rows [start, start + count) of the grid (count at most SHEET_ROWS_WINDOW_MAX, 5,000), for a client that loads a large sheet a window at a time. Only the stored chunks overlapping the window are read. With col_start and col_count (together; col_start + col_count at most SHEET_MAX_COLUMNS, 16,384), each row holds only columns [col_start, col_start + col_count), parsed out of the stored text (a whole-column read of a wide sheet sends a fraction of it), and the answer says col_start. With summary=1 the answer also carries the sheet\'s summary (name, metadata, access) at the same version.', tag: 'Sheets', params: SheetIdParamsSchema, query: SheetRowsQuerySchema, responses: { 200: SheetRowsSchema } }, onSheet('view')), async (request) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    return sheets.rowWindow(id, validate(SheetRowsQuerySchema, request.query), currentUser(request).id, request.accessLevel ?? undefined);
  });

  app.get('/:id/find', withDoc({ summary: 'Find cells by their text', description: 'The next matches (up to limit, at most FIND_LIMIT_MAX, 500) of the cells whose text contains q (at most FIND_QUERY_MAX_CHARS, 256, compared without case) after cell (after_row, after_col) in row order (direction=prev: before it), wrapping past the end, and how many match: total, exact when complete, else the count when the scan stopped (more than FIND_COUNT_CAP, 1,000). For a sheet shown a window at a time: the stored rows are read a window at a time, never whole; a formula is matched by its text. Takes a \'sheet read\' slot while it scans.', tag: 'Sheets', params: SheetIdParamsSchema, query: FindQuerySchema, responses: { 200: FindResultSchema } }, { ...onSheet('view'), onRequest: services.slots.before('sheet read') }), async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const query = validate(FindQuerySchema, request.query);
    // The client gone (another text typed, the bar closed): the scan stops.
    return sheets.find(id, query, () => reply.raw.destroyed || request.raw.socket.destroyed);
  });

  // A windowed sheet's row filter (personal: nothing is stored or sent to others), judged here since its rows are not in the browser.
  const filterDoc = `The filters of up to FILTER_COLUMNS_MAX (${FILTER_COLUMNS_MAX}) columns of the sheet, each a values list (mode only: the texts ticked; except: the texts unticked) and a condition (contains, equals, greater, less, empty, not_empty), judged on each cell's text as shown (a formula by its text, as a windowed grid shows it), over the stored rows read a window at a time, never whole; a row passes when every filtered column passes. Takes a 'sheet read' slot while it scans. 409 when the sheet's rows kept moving during the scan.`;
  app.post('/:id/filter', withDoc({ summary: 'The rows a row filter shows', description: `${filterDoc} The answer, at the sheet's version (read before the scan): runs, the rows shown as packed runs (contracts unpackRuns: start and count pairs, varints, base64), and shown of rows, the filter's range (up to the last row holding a value; the empty rows below it are shown, outside it).`, tag: 'Sheets', params: SheetIdParamsSchema, body: SheetFilterBodySchema, responses: { 200: SheetFilterResultSchema } }, { bodyLimit: FILTER_BODY_MAX_BYTES, ...onSheet('view'), onRequest: services.slots.before('sheet read') }), async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const body = validate(SheetFilterBodySchema, request.body);
    // The client gone (the filter changed, the sheet closed): the scan stops.
    return sheets.filterRows(id, body, () => reply.raw.destroyed || request.raw.socket.destroyed);
  });

  app.post('/:id/find', withDoc({ summary: 'Find cells by their text in the rows a row filter shows', description: `GET /sheets/:id/find's search (its query's fields as JSON numbers and texts) with the user's row filter on: filters, as POST /sheets/:id/filter's (up to FILTER_COLUMNS_MAX, ${FILTER_COLUMNS_MAX}, columns of the sheet, each a values list and a condition, judged on each cell's text as shown, a formula by its text; a row passes when every filtered column passes), read a window at a time, never whole; a 'sheet read' slot while it scans. The rows the filter hides are passed over: the matches answered and total (exact when complete, else the count when the scan stopped, more than FIND_COUNT_CAP, 1,000) are of the rows it shows only; their places (the third of each match) count those only.`, tag: 'Sheets', params: SheetIdParamsSchema, body: FilteredFindBodySchema, responses: { 200: FindResultSchema } }, { bodyLimit: FILTER_BODY_MAX_BYTES, ...onSheet('view'), onRequest: services.slots.before('sheet read') }), async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const { filters, ...query } = validate(FilteredFindBodySchema, request.body);
    return sheets.find(id, query, () => reply.raw.destroyed || request.raw.socket.destroyed, filters);
  });

  app.post('/:id/filter/values', withDoc({ summary: 'A column\'s values for its row filter', description: `${filterDoc} The values of column (its text as shown, '' for the blanks) in the rows the other columns' filters show of the filter's range, containing search (without case; the blanks as '(Blanks)'), in the filter list's order (numbers, then texts, the blanks last): the first FILTER_VALUES_SHOWN (${FILTER_VALUES_SHOWN}) with how many cells show each, and more, how many other values there are; with all: true (the dialog's Select all or Clear with a search), as many as a filter may list (FILTER_TEXTS_MAX, ${FILTER_TEXTS_MAX}, texts of FILTER_TEXTS_MAX_CHARS, ${FILTER_TEXTS_MAX_CHARS}, characters together).`, tag: 'Sheets', params: SheetIdParamsSchema, body: SheetFilterValuesBodySchema, responses: { 200: SheetFilterValuesResultSchema } }, { bodyLimit: FILTER_BODY_MAX_BYTES, ...onSheet('view'), onRequest: services.slots.before('sheet read') }), async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const body = validate(SheetFilterValuesBodySchema, request.body);
    return sheets.filterValues(id, body, () => reply.raw.destroyed || request.raw.socket.destroyed);
  });

  app.put('/:id', withDoc({ summary: 'Save a sheet (a stale base is merged cell by cell)', tag: 'Sheets', params: SheetIdParamsSchema, body: UpdateSheetBodySchema, responses: { 200: SheetSummarySchema } }, { bodyLimit: SHEET_BODY_LIMIT_BYTES, ...onSheet('edit'), onRequest: services.slots.before('save') }), async (request) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    requireColumnsOfBody(request.body);
    const body = validate(UpdateSheetBodySchema, request.body);
    const user = currentUser(request);
    if (body.group_id !== undefined) await access.requirePlace(user, body.group_id);
    return sheets.update(id, body, user.id);
  });

  app.patch('/:id/cells', withDoc({ summary: 'Change cells', tag: 'Sheets', params: SheetIdParamsSchema, body: CellPatchBodySchema, responses: { 200: CellPatchResultSchema } }, onSheet('edit')), async (request) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    return sheets.patchCells(id, validate(CellPatchBodySchema, request.body), currentUser(request).id);
  });

  // To the trash (owners), with everything it needs to come back.
  app.delete('/:id', withDoc({ summary: 'Move a sheet to the trash (owners)', tag: 'Sheets', params: SheetIdParamsSchema, responses: { 200: DeleteResultSchema } }), async (request): Promise<DeleteResult> => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    await services.trash.trashSheet(actorOf(request), id);
    return { status: 'deleted', id };
  });

  app.post('/:id/duplicate', withDoc({ summary: 'Duplicate a sheet', tag: 'Sheets', params: SheetIdParamsSchema, responses: { 201: SheetSummarySchema } }, { ...onSheet('view'), onRequest: services.slots.before('sheet copy') }), async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const user = currentUser(request);
    const source = await services.db.selectFrom('sheets').select('group_id').where('id', '=', id).executeTakeFirst();
    // The copy goes beside the original, or to root for a member who may not add items there (a viewer's copy).
    const place = source?.group_id ?? null;
    const target = place !== null && (await access.canAddTo(user, place)) ? place : null;
    if (target === null) await access.requirePlace(user, null);
    try {
      return reply.code(201).send(await sheets.duplicate(id, user.id, target));
    } catch (err) {
      if (err instanceof HttpError) throw err;
      request.log.error({ err }, 'duplicate failed');
      throw new HttpError(500, ERROR_CODES.internal, 'Failed to duplicate sheet');
    }
  });

  app.post('/:id/favorite', withDoc({ summary: 'Toggle a favorite', tag: 'Sheets', params: SheetIdParamsSchema, responses: { 200: FavoriteToggleResultSchema } }, onSheet('view')), async (request): Promise<FavoriteToggleResult> => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    return { sheet_id: id, is_favorite: await sheets.toggleFavorite(id, currentUser(request).id) };
  });
};

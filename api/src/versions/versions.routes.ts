import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import {
  ACCESS_TEXTS,
  CellHistorySchema,
  CreateProposalBodySchema,
  FindQuerySchema,
  FindResultSchema,
  DiscardResultSchema,
  PruneResultSchema,
  SheetHistorySchema,
  SheetRowsQuerySchema,
  SheetVersionEntrySchema,
  SheetVersionSchema,
  SnapshotDetailSchema,
  SnapshotListSchema,
  VersionTransitionResultSchema,
  HistoryQuerySchema,
  RetentionPolicySchema,
  SHEET_MAX_COLUMNS,
  SHEET_MAX_ROWS,
  SnapshotListQuerySchema,
  VersionIdSchema,
  VersionLabelBodySchema,
  VersionRowsSchema,
} from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { onSheet } from '../access/access-guard.js';
import { actorOf, sheetItem } from '../activity/activity.routes.js';
import { currentUser } from '../http/auth-guard.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { SHEET_BODY_LIMIT_BYTES } from '../sheets/sheets.routes.js';
import { pruneHistory } from './version-pruner.js';
import { withVersionTables } from './versions.tables.js';
import { isProposalId, VersionsService } from './versions.service.js';
import { HttpError } from '../http/http-error.js';
import { withDoc } from '../openapi/route-doc.js';

const sheetId = z.uuid({ error: 'Invalid sheet id' });
const VersionParams = z.object({ id: sheetId, versionId: VersionIdSchema });
const SnapshotParams = z.object({
  id: sheetId,
  version: z.coerce.number({ error: 'Invalid version' }).int({ error: 'Invalid version' }).min(1, { error: 'Invalid version' }).max(2 ** 31 - 1, { error: 'Invalid version' }),
});
const CellParams = z.object({
  id: sheetId,
  row: z.coerce.number({ error: 'Invalid row' }).int({ error: 'Invalid row' }).min(0, { error: 'Invalid row' }).max(SHEET_MAX_ROWS - 1, { error: 'Invalid row' }),
  col: z.coerce.number({ error: 'Invalid column' }).int({ error: 'Invalid column' }).min(0, { error: 'Invalid column' }).max(SHEET_MAX_COLUMNS - 1, { error: 'Invalid column' }),
});
const SheetParams = z.object({ id: sheetId });

/** {api}/sheets/{id}: history, snapshots, versions and proposals, labels, cell history (issue 6). */
export const versionsRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const versions = new VersionsService(services.db, services.sheets);
  // Versions rebuilt for windows behind their answers: kept (or given up) before the database closes.
  app.addHook('onClose', () => versions.rowsSettled());
  // A version made live again holds it and the sheet whole (parsed) until written: slots taken before anything is read.
  const restoring = services.slots.before('restore');

  app.get('/:id/history', withDoc({ summary: 'A sheet\'s versions, newest first', tag: 'Versions', params: SheetParams, query: HistoryQuerySchema, responses: { 200: SheetHistorySchema } }, onSheet('view')), async (request) => {
    const { id } = validate(SheetParams, request.params);
    return versions.history(id, validate(HistoryQuerySchema, request.query));
  });

  // Retention is opt-in: nothing is pruned unless this is called with a policy (README § Versions).
  app.post('/:id/history/prune', withDoc({ summary: 'Prune old versions by a retention policy (owners)', tag: 'Versions', params: SheetParams, body: RetentionPolicySchema, responses: { 200: PruneResultSchema } }, onSheet('own')), async (request) => {
    const { id } = validate(SheetParams, request.params);
    const policy = validate(RetentionPolicySchema, request.body);
    // The name first: PGlite has one connection, which the prune's transaction holds.
    const item = await sheetItem(services, id);
    return pruneHistory(withVersionTables(services.db), id, policy, (trx, result) =>
      // The same transaction, typed with the version tables too (a superset of Database).
      services.activity.append(actorOf(request), { kind: 'history_pruned', item, detail: { policy, result } }, trx as unknown as Kysely<Database>),
    );
  });

  app.get('/:id/snapshots', withDoc({ summary: 'Timeline snapshots', tag: 'Versions', params: SheetParams, query: SnapshotListQuerySchema, responses: { 200: SnapshotListSchema } }, onSheet('view')), async (request) => {
    const { id } = validate(SheetParams, request.params);
    return versions.snapshots(id, validate(SnapshotListQuerySchema, request.query).limit);
  });

  app.get('/:id/snapshots/:version', withDoc({ summary: 'One snapshot with its changed cells', tag: 'Versions', params: SnapshotParams, responses: { 200: SnapshotDetailSchema } }, onSheet('view')), async (request) => {
    const { id, version } = validate(SnapshotParams, request.params);
    return versions.snapshot(id, version);
  });

  app.post('/:id/snapshots/:version/restore', withDoc({ summary: 'Restore a snapshot (a new live version)', tag: 'Versions', params: SnapshotParams, responses: { 200: VersionTransitionResultSchema } }, { ...onSheet('edit'), onRequest: restoring }), async (request) => {
    const { id, version } = validate(SnapshotParams, request.params);
    return versions.checkout(id, String(version), currentUser(request).id, 'restore');
  });

  app.get('/:id/versions/:versionId', withDoc({ summary: 'One version or proposal with its grid', tag: 'Versions', params: VersionParams, responses: { 200: SheetVersionSchema } }, { ...onSheet('view'), onRequest: services.slots.before('sheet read') }), async (request, reply) => {
    const { id, versionId } = validate(VersionParams, request.params);
    // Sent as text: untouched chunks go out as stored, without a parse and re-serialisation.
    return reply.type('application/json; charset=utf-8').send(await versions.versionJson(id, versionId));
  });

  app.get('/:id/versions/:versionId/rows', withDoc({ summary: 'A window of a version\'s rows, with its size', description: 'Rows [start, start + count) of a version or proposal (count at most SHEET_ROWS_WINDOW_MAX, 5,000), for the preview of a sheet shown a window at a time (issue 23). With col_start and col_count, only those columns of each row, as GET /sheets/{id}/rows. With summary=1 the answer also carries the version without its rows (entry, headers, changed cells, charts), as GET /sheets/{id}/versions/{versionId} gives it. A committed version is rebuilt once and kept; each read checks that it still exists.', tag: 'Versions', params: VersionParams, query: SheetRowsQuerySchema, responses: { 200: VersionRowsSchema } }, onSheet('view')), async (request, reply) => {
    const { id, versionId } = validate(VersionParams, request.params);
    // A proposal not kept yet is read and parsed whole for its rows: that request holds a slot (those waiting for the same read do not).
    // A committed version not kept yet answers from the chunks holding the window and is rebuilt whole behind it, under a slot of
    // the member's taken for that rebuild until it is kept (refused: the window is still answered, the next one tries again).
    return versions.versionRows(id, versionId, validate(SheetRowsQuerySchema, request.query), {
      hold: () => services.slots.hold('sheet read', request, reply),
      take: () => services.slots.take('sheet read', currentUser(request).id),
    });
  });

  app.get('/:id/versions/:versionId/find', withDoc({ summary: 'Find cells by their text in a version', description: 'As GET /sheets/{id}/find, in a version or proposal (the find of the preview of a sheet shown a window at a time): the next matches (up to limit, at most FIND_LIMIT_MAX, 500) of the cells whose text contains q (at most FIND_QUERY_MAX_CHARS, 256, compared without case) after cell (after_row, after_col) in row order (direction=prev: before it), wrapping past the end, and how many match (exact when complete, else more than FIND_COUNT_CAP, 1,000); a formula is matched by its text. The version\'s rows are those its windows are read from (rebuilt once and kept); version: the committed version, or the one a proposal was made on. Takes a \'sheet read\' slot while it scans.', tag: 'Versions', params: VersionParams, query: FindQuerySchema, responses: { 200: FindResultSchema } }, { ...onSheet('view'), onRequest: services.slots.before('sheet read') }), async (request, reply) => {
    const { id, versionId } = validate(VersionParams, request.params);
    const query = validate(FindQuerySchema, request.query);
    // The client gone (another text typed, the bar closed, the preview left): the scan stops.
    return versions.find(id, versionId, query, () => reply.raw.destroyed || request.raw.socket.destroyed);
  });

  app.post('/:id/versions', withDoc({ summary: 'Propose a version (applied when accepted)', tag: 'Versions', params: SheetParams, body: CreateProposalBodySchema, responses: { 201: SheetVersionEntrySchema } }, { bodyLimit: SHEET_BODY_LIMIT_BYTES, ...onSheet('edit'), onRequest: services.slots.before('save') }), async (request, reply) => {
    const { id } = validate(SheetParams, request.params);
    const body = validate(CreateProposalBodySchema, request.body);
    return reply.code(201).send(await versions.propose(id, body, currentUser(request).id));
  });

  app.post('/:id/versions/:versionId/accept', withDoc({ summary: 'Accept a proposal', tag: 'Versions', params: VersionParams, responses: { 200: VersionTransitionResultSchema } }, { ...onSheet('edit'), onRequest: restoring }), async (request) => {
    const { id, versionId } = validate(VersionParams, request.params);
    return versions.accept(id, versionId, currentUser(request).id);
  });

  app.post('/:id/versions/:versionId/checkout', withDoc({ summary: 'Check out a version (a new live version with its content)', tag: 'Versions', params: VersionParams, responses: { 200: VersionTransitionResultSchema } }, { ...onSheet('edit'), onRequest: restoring }), async (request) => {
    const { id, versionId } = validate(VersionParams, request.params);
    return versions.checkout(id, versionId, currentUser(request).id, 'checkout');
  });

  // Rejecting a proposal is part of reviewing (editors, as accept); discarding a committed version is for owners.
  app.post('/:id/versions/:versionId/discard', withDoc({ summary: 'Discard a proposal (editors) or a committed version (owners)', tag: 'Versions', params: VersionParams, responses: { 200: DiscardResultSchema } }, onSheet('edit')), async (request) => {
    const { id, versionId } = validate(VersionParams, request.params);
    if (!isProposalId(versionId) && request.accessLevel !== 'owner') throw HttpError.forbidden(ACCESS_TEXTS.ownersOnly);
    await versions.discard(id, versionId);
    await services.activity.append(actorOf(request), { kind: 'version_discarded', item: await sheetItem(services, id), detail: { version_id: versionId } });
    return { status: 'discarded', version_id: versionId };
  });

  app.put('/:id/versions/:versionId/label', withDoc({ summary: 'Label a version', tag: 'Versions', params: VersionParams, body: VersionLabelBodySchema, responses: { 200: SheetVersionEntrySchema } }, onSheet('edit')), async (request) => {
    const { id, versionId } = validate(VersionParams, request.params);
    const { label } = validate(VersionLabelBodySchema, request.body);
    return versions.setLabel(id, versionId, label, currentUser(request).id);
  });

  app.delete('/:id/versions/:versionId/label', withDoc({ summary: 'Remove a version\'s label', tag: 'Versions', params: VersionParams, responses: { 200: SheetVersionEntrySchema } }, onSheet('edit')), async (request) => {
    const { id, versionId } = validate(VersionParams, request.params);
    return versions.setLabel(id, versionId, null, currentUser(request).id);
  });

  app.get('/:id/cells/:row/:col/history', withDoc({ summary: 'One cell\'s changes', tag: 'Versions', params: CellParams, responses: { 200: CellHistorySchema } }, { ...onSheet('view'), onRequest: services.slots.before('sheet read') }), async (request) => {
    const { id, row, col } = validate(CellParams, request.params);
    return versions.cellHistory(id, row, col);
  });
};

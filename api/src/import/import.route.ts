import multipart from '@fastify/multipart';
import {
  DEFAULT_IMPORT_NAME,
  ERROR_CODES,
  IMPORT_MAX_BYTES,
  IMPORT_TOO_LARGE_MESSAGE,
  ImportQuerySchema,
  type ImportResult,
  ImportResultSchema,
  SheetNameSchema,
} from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { ParseError, parseDelimited } from './delimited-text.js';
import { cleanName, extensionOf } from './upload-name.js';
import { withDoc } from '../openapi/route-doc.js';
import { ImportProgress } from './import-progress.js';

/** The upload's parts, for the reference (the handler reads the multipart stream itself, below). */
const ImportUploadSchema = z.object({
  file: z.string().meta({ format: 'binary', description: '.csv, .xlsx or .xls' }),
  name: SheetNameSchema.optional(),
});

const tooLarge = () => new HttpError(413, ERROR_CODES.payloadTooLarge, IMPORT_TOO_LARGE_MESSAGE);

/**
 * POST /api/v1/import (multipart: file, name): parsed on the server, every worksheet a new
 * sheet, all in one transaction; a workbook of several worksheets goes into a new group. With
 * `?progress=<uuid>`, the importing user's workspace sockets hear the rows stored so far
 * (`import_progress` frames, import-progress.ts) while the rows are written.
 */
export const importRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  // Registered here only: no other route accepts multipart.
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096 } });

  app.post('/', withDoc({ summary: 'Import a CSV or workbook: every worksheet a new sheet', description: "With progress=<uuid>, the caller's workspace socket (/live) gets import_progress frames (rows stored so far, of all) while the rows are written.", tag: 'Import', query: ImportQuerySchema, body: ImportUploadSchema, bodyType: 'multipart/form-data', responses: { 201: ImportResultSchema } }), async (request, reply): Promise<ImportResult> => {
    const user = currentUser(request);
    const userId = user.id;
    const { progress: importId } = validate(ImportQuerySchema, request.query);
    // Imports land at root: refused before anything is read when the member may not add items there.
    await services.access.requirePlace(user, null);
    if (!request.isMultipart()) throw HttpError.badRequest('Expected a multipart/form-data upload with a file');
    // Before the upload is read (it may be 50 MB, inflating to IMPORT_MAX_EXPANDED_MB), given back with the reply.
    services.slots.hold('import', request, reply);
    let file: { filename: string; bytes: Buffer } | undefined;
    const fields: Record<string, string> = {};
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || file) {
            await part.toBuffer();
            continue;
          }
          file = { filename: part.filename, bytes: await part.toBuffer() };
        } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      }
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (code?.startsWith('FST_')) throw HttpError.badRequest((err as Error).message);
      throw err;
    }
    if (!file) throw HttpError.badRequest('No file uploaded (expected the field "file")');
    if (file.bytes.length > IMPORT_MAX_BYTES) throw tooLarge();

    const extension = extensionOf(file.filename);
    if (!extension) throw HttpError.badRequest(`Unsupported file type: ${file.filename} (use .csv, .xlsx or .xls)`);
    const name = fields.name?.trim()
      ? validate(SheetNameSchema, fields.name)
      : cleanName(file.filename.replace(/\.[^.]*$/, '')) ?? DEFAULT_IMPORT_NAME;

    let tables;
    try {
      const maxCells = services.sheets.maxCells;
      tables =
        extension === 'csv'
          ? [{ name, ...parseDelimited(file.bytes, maxCells) }]
          : // SheetJS takes ~0.3 s of CPU to load: at the first workbook import, not at every start.
            (await import('./workbook.js')).parseWorkbook(file.bytes, extension, { maxCells, maxExpandedMb: services.config.importMaxExpandedMb });
    } catch (err) {
      if (err instanceof ParseError) throw HttpError.badRequest(err.message);
      throw err;
    }

    const total = tables.reduce((sum, t) => sum + t.rows, 0);
    const progress = importId ? new ImportProgress(services.live.bus, userId, importId, total, request.log) : null;
    progress?.report(0);
    const { group, result } = await services.db.transaction().execute(async (trx) => {
      const several = tables.length > 1;
      const group = several ? await services.groups.insert(trx, { name }, userId) : null;
      const made: { id: string; name: string }[] = [];
      let before = 0;
      for (const table of tables) {
        const offset = before;
        made.push(
          await services.sheets.insert(trx, {
            name: several ? (cleanName(table.name) ?? name) : name,
            groupId: group?.id ?? null,
            headers: table.headers,
            data: [],
            text: { chunks: table.chunks, held: table.held, rows: table.rows, columns: table.columns, onStored: (rows) => progress?.report(offset + rows) },
            extra: { origin: 'import', sourceFile: file.filename },
            userId,
            kind: 'import',
          }),
        );
        before += table.rows;
      }
      return { group, result: { updated_sheets: made.length, new_categories: group ? 1 : 0, sheets: made, group_id: group?.id ?? null } };
    });
    // Committed: the workspace's navigators learn of the new group and sheets.
    if (group) services.groups.announce('group_created', group, userId);
    for (const s of result.sheets) services.sheets.announce('sheet_created', { ...s, group_id: result.group_id }, userId);
    reply.code(201);
    return result;
  });
};

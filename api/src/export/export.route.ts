import { Readable } from 'node:stream';
import { ExportJsonSchema, ExportQuerySchema } from '@tessera/contracts';
import { z } from 'zod';
import type { FastifyPluginAsync } from 'fastify';
import { onSheet } from '../access/access-guard.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { SheetIdParamsSchema } from '../sheets/sheet-params.js';
import { csvPieces } from './csv-export.js';
import { readExportSource } from './export-source.js';
import { jsonPieces } from './json-export.js';
import { contentDisposition, exportFileName } from './sheet-export.js';
import { xlsxStream } from './xlsx-export.js';
import { withDoc } from '../openapi/route-doc.js';

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** The file as bytes: one schema for the three types it can be. */
const FileSchema = z.string().meta({ format: 'binary' });
const EXPORT_DOC = {
  summary: 'Export a sheet as CSV, XLSX or JSON',
  tag: 'Sheets',
  params: SheetIdParamsSchema,
  query: ExportQuerySchema,
  responses: {
    200: {
      description: 'The file (Content-Disposition names it)',
      content: { 'text/csv': FileSchema, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': FileSchema, 'application/json': ExportJsonSchema },
    },
  },
};

/**
 * GET {api}/sheets/{id}/export?format=csv|xlsx|json[&formulas=escape|keep]: the file, named with
 * the sheet name and the minute, streamed chunk by chunk (issue 17 §1); CSV cells a spreadsheet
 * would run are written as text unless formulas=keep (§4).
 */
export const exportRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/:id/export', withDoc(EXPORT_DOC, onSheet('view')), async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const { format, formulas } = validate(ExportQuerySchema, request.query);
    // Held until the file is sent or the reader goes: the source holds the whole sheet's text.
    services.slots.hold('export', request, reply);
    const source = await readExportSource(services.db, services.sheets, id, format === 'xlsx');
    const onError = (err: unknown) => request.log.error({ err }, 'export failed while streaming');
    const body =
      format === 'csv'
        ? Readable.from(csvPieces(source, formulas === 'keep'), { objectMode: false })
        : format === 'json'
          ? Readable.from(jsonPieces(source), { objectMode: false })
          : xlsxStream(source, onError, services.config.exportFormulaMaxCells);
    return reply
      .type(CONTENT_TYPES[format])
      .header('content-disposition', contentDisposition(exportFileName(source.summary.name, format)))
      .send(body);
  });
};

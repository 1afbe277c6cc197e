import { ExportQuerySchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { SheetIdParamsSchema } from '../sheets/sheet-params.js';
import { contentDisposition, exportFileName, toCsv, toJson, toXlsx } from './sheet-export.js';

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** GET {api}/sheets/{id}/export?format=csv|xlsx|json: the file, named with the sheet name and the minute. */
export const exportRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/:id/export', async (request, reply) => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const { format } = validate(ExportQuerySchema, request.query);
    const { summary, data } = await services.sheets.readGrid(id);
    const headers = summary.metadata.headers;
    const body = format === 'csv' ? toCsv(headers, data) : format === 'xlsx' ? toXlsx(summary.name, headers, data) : toJson(summary, data);
    return reply
      .type(CONTENT_TYPES[format])
      .header('content-disposition', contentDisposition(exportFileName(summary.name, format)))
      .send(body);
  });
};

import crypto from 'node:crypto';
import { CHART_TEXTS, type ChartDefinition, type ChartsResult, ChartsResultSchema, CreateChartBodySchema, ERROR_CODES, UpdateChartBodySchema } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { onSheet } from '../access/access-guard.js';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { SheetIdParamsSchema } from '../sheets/sheet-params.js';
import { withDoc } from '../openapi/route-doc.js';

const ChartParamsSchema = SheetIdParamsSchema.extend({ chartId: z.uuid({ error: 'Invalid chart id' }) });

const chartNotFound = () => new HttpError(404, ERROR_CODES.notFound, CHART_TEXTS.notFound);

/**
 * {api}/sheets/:id/charts (issue 20): add, change and delete a sheet's charts. Editors only
 * (viewers see charts in the sheet's metadata); every body is checked against the contract
 * before anything is read; each change is one new version of the sheet. A body with `base_version`
 * has its range moved through the row/column inserts and removes committed since, so a chart drawn
 * on a view behind another user's insert charts the same cells (a new chart whose cells are gone
 * since: 409; a changed one keeps no range, as the removal left it).
 */
export const chartsRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const { sheets } = services;

  app.post('/:id/charts', withDoc({ summary: 'Add a chart', tag: 'Charts', params: SheetIdParamsSchema, body: CreateChartBodySchema, responses: { 201: ChartsResultSchema } }, onSheet('edit')), async (request, reply): Promise<ChartsResult> => {
    const { id } = validate(SheetIdParamsSchema, request.params);
    const { base_version, ...options } = validate(CreateChartBodySchema, request.body);
    const chart: ChartDefinition = { ...options, id: crypto.randomUUID() };
    const result = await sheets.writeCharts(
      id,
      currentUser(request).id,
      chart.id,
      (charts, anchor, anchorBox) => {
        // A new chart of cells removed since its author saw them would show nothing: refused.
        const range = anchor(options.range);
        if (range === null) throw new HttpError(409, ERROR_CODES.conflict, CHART_TEXTS.rangeGone);
        chart.range = range;
        chart.box = anchorBox(options.box);
        return [...charts, chart];
      },
      base_version,
    );
    return reply.code(201).send({ ...result, chart });
  });

  app.put('/:id/charts/:chartId', withDoc({ summary: 'Change a chart', tag: 'Charts', params: ChartParamsSchema, body: UpdateChartBodySchema, responses: { 200: ChartsResultSchema } }, onSheet('edit')), async (request): Promise<ChartsResult> => {
    const { id, chartId } = validate(ChartParamsSchema, request.params);
    const { base_version, ...options } = validate(UpdateChartBodySchema, request.body);
    return sheets.writeCharts(
      id,
      currentUser(request).id,
      chartId,
      (charts, anchor, anchorBox) => {
        if (!charts.some((c) => c.id === chartId)) throw chartNotFound();
        // Cells removed since (or before: range null) leave the chart with no range, as the op did to it; the box follows its cell.
        const changed = { ...options, range: options.range === null ? null : anchor(options.range), box: anchorBox(options.box), id: chartId };
        return charts.map((c) => (c.id === chartId ? changed : c));
      },
      base_version,
    );
  });

  app.delete('/:id/charts/:chartId', withDoc({ summary: 'Delete a chart', tag: 'Charts', params: ChartParamsSchema, responses: { 200: ChartsResultSchema } }, onSheet('edit')), async (request): Promise<ChartsResult> => {
    const { id, chartId } = validate(ChartParamsSchema, request.params);
    return sheets.writeCharts(id, currentUser(request).id, chartId, (charts) => {
      if (!charts.some((c) => c.id === chartId)) throw chartNotFound();
      return charts.filter((c) => c.id !== chartId);
    });
  });
};

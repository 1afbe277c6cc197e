import {
  type AiChart,
  type AiChartRequest,
  AiChartRequestSchema,
  aiChartOptions,
  ChartsResultSchema,
  ErrorBodySchema,
  type HybridForwardRequest,
  type HybridResponse,
  parseA1Range,
} from '@tessera/contracts';
import { z } from 'zod';

/** The api stores a chart at once; past this the chart is reported not made. */
const CHART_TIMEOUT_MS = 15_000;

/**
 * What a model writes to ask for a chart (README "Charts from the AI"): a ```chart-json block
 * beside its program. The range is in A1 notation (A1 is the first row under the headers); a
 * chart over the result may leave it out (the whole result grid).
 */
const ModelChartSchema = z.object({
  target: AiChartRequestSchema.shape.target,
  type: AiChartRequestSchema.shape.type.default('column'),
  range: z.string().max(40).optional(),
  categories: AiChartRequestSchema.shape.categories.default('first_column'),
  title: z.string().max(200).default(''),
  x_axis_title: z.string().max(100).default(''),
  y_axis_title: z.string().max(100).default(''),
});

/** The model's ```chart-json block, if its reply has one: the request, or why it cannot be one. */
export function extractChartRequest(reply: string, resultGrid: { headers: string[]; rows: unknown[][] } | undefined): AiChartRequest | { error: string } | null {
  const block = /```[ \t]*chart-json[^\n]*\n([\s\S]*?)(?:```|$)/i.exec(reply);
  if (!block) return null;
  let json: unknown;
  try {
    json = JSON.parse(block[1]);
  } catch {
    return { error: 'The chart-json block is not JSON' };
  }
  const parsed = ModelChartSchema.safeParse(json);
  if (!parsed.success) return { error: `The chart-json block is not a chart: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  const { range: label, ...rest } = parsed.data;
  let range = label === undefined ? null : parseA1Range(label);
  if (label === undefined && rest.target === 'result' && resultGrid && resultGrid.rows.length > 0 && resultGrid.headers.length > 0) {
    range = wholeGrid(resultGrid);
  }
  if (!range) return { error: label === undefined ? 'The chart-json block names no range' : `The chart-json range "${label}" is not a range like A1:B10` };
  return AiChartRequestSchema.parse({ ...rest, range });
}

/** The whole of a result grid as a chart range (its first column the categories). */
export const wholeGrid = (grid: { headers: string[]; rows: unknown[][] }) => ({ start_row: 0, start_col: 0, end_row: grid.rows.length - 1, end_col: grid.headers.length - 1 });

/**
 * A chart over the active sheet (target 'sheet') is made now through the api's chart route with
 * the caller's own token: the api's editor check decides, and its refusal (a viewer: 'You can
 * only view this sheet') is the reply's chart error, word for word; nothing is stored then. The
 * range is sent on the version the AI saw (base_version), so the api moves it through inserts
 * made since. A chart over the result is left to the panel, which makes the result's sheet.
 */
export async function withChart(
  response: HybridResponse,
  call: { apiUrl: string; authorization: string; body: HybridForwardRequest },
): Promise<HybridResponse> {
  const chart = response.chart;
  if (!response.success || !chart || chart.request.target !== 'sheet' || chart.chart_id || chart.error) return response;
  const sheetId = call.body.sheet_id ?? call.body.sheet_context?.id;
  if (!sheetId) return { ...response, chart: { ...chart, error: 'A chart over the sheet needs an open sheet' } };
  return { ...response, chart: await createSheetChart(chart, sheetId, call) };
}

async function createSheetChart(chart: AiChart, sheetId: string, call: { apiUrl: string; authorization: string; body: HybridForwardRequest }): Promise<AiChart> {
  const base = call.body.sheet_context?.version;
  let res: Response;
  try {
    res = await fetch(`${call.apiUrl}/api/v1/sheets/${encodeURIComponent(sheetId)}/charts`, {
      method: 'POST',
      headers: { authorization: call.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ ...aiChartOptions(chart.request), ...(base !== undefined && base >= 1 ? { base_version: base } : {}) }),
      signal: AbortSignal.timeout(CHART_TIMEOUT_MS),
    });
  } catch (err) {
    return { ...chart, sheet_id: sheetId, error: `The api could not be reached: ${err instanceof Error ? err.message : String(err)}` };
  }
  const text = await res.text();
  const json = safeJson(text);
  if (!res.ok) {
    const body = ErrorBodySchema.safeParse(json);
    return { ...chart, sheet_id: sheetId, error: body.success ? body.data.error.message : `HTTP ${res.status}` };
  }
  const made = ChartsResultSchema.safeParse(json);
  if (!made.success || !made.data.chart) return { ...chart, sheet_id: sheetId, error: "The api's reply is not a chart" };
  return { ...chart, sheet_id: sheetId, chart_id: made.data.chart.id };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

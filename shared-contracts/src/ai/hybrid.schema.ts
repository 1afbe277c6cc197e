import { AiChartSchema } from '../charts/ai-chart.schema.js';
import { z } from 'zod';
import { CELL_MAX_LENGTH, type GridData, SHEET_MAX_COLUMNS, isGridData } from '../sheets/sheet.schema.js';
import { CODE_RUN_GRID_SOURCES, CODE_RUN_MAX_CODE_LENGTH, CodeRunResultSchema, GridDiscardSchema, JsonValueSchema } from './code-run.schema.js';
import { ConversationTurnSchema } from './vertex.schema.js';
import { MergeTimelineSnapshotSchema } from './merge-timeline.schema.js';
import { GridDiffSchema } from './grid-diff.schema.js';
import {
  BackendSolverSchema,
  RollbackOptionSchema,
  ScheduleOptimizationSchema,
  ScheduleRunSchema,
  SolverStatusSchema,
} from '../schedule/schedule-result.schema.js';

/**
 * POST /hybrid/forward (spec 02 §3, §4, §7): "Agent • Direct Exec" (enable_ai_generation
 * false) runs the code given on the sheet given; "Agent • AI Powered" (true) has the model
 * provider write the code from the instruction, then runs it (ai-powered.schema.ts).
 */

/** Most cells (rows × columns) one job may carry: the 100,000 × 26 sheet the workspace is built to open. */
export const HYBRID_MAX_CELLS = 2_600_000;
/** Request body limit of /hybrid/forward: room for HYBRID_MAX_CELLS short cells as JSON. */
export const HYBRID_BODY_LIMIT_BYTES = 32 * 1024 * 1024;
export const HYBRID_MAX_PROMPT_LENGTH = 20_000;

export const DIRECT_EXEC_CODE_REQUIRED_MESSAGE = 'code is required in Agent • Direct Exec (enable_ai_generation: false)';

/** A grid checked with isGridData: zod takes seconds on millions of cells, this milliseconds. */
const HybridGridSchema = z.custom<GridData>(isGridData, {
  message: 'must be a list of rows, each a list of cells (text up to 32767 characters, number, boolean or null)',
});
const HeadersSchema = z.array(z.string().max(CELL_MAX_LENGTH)).max(SHEET_MAX_COLUMNS);

export const HybridSpreadsheetDataSchema = z.object({
  headers: HeadersSchema.optional(),
  rows: HybridGridSchema.optional(),
  /** Older clients send the grid as `data`; `rows` wins when both are given. */
  data: HybridGridSchema.optional(),
});

export const HybridSheetContextSchema = z.object({
  id: z.string().max(200).optional(),
  name: z.string().max(255).optional(),
  headers: HeadersSchema.optional(),
  rowCount: z.number().int().min(0).optional(),
  columnCount: z.number().int().min(0).optional(),
  lastModified: z.string().max(100).optional(),
  version: z.number().int().min(0).optional(),
});

/** The body of POST /hybrid/forward as spec 02 §7 lists it; unknown fields are dropped. */
export const HybridForwardRequestSchema = z.object({
  /** The instruction (sent as `problem` in the stream form). */
  problem: z.string().max(HYBRID_MAX_PROMPT_LENGTH).optional(),
  instruction: z.string().max(HYBRID_MAX_PROMPT_LENGTH).optional(),
  code: z.string().max(CODE_RUN_MAX_CODE_LENGTH).optional(),
  files: z.array(z.union([z.string().max(1000), z.looseObject({ path: z.string().max(1000) })])).max(300).optional(),
  enable_ai_generation: z.boolean().default(false),
  parameters: z
    .looseObject({
      environment_id: z.string().max(200).optional(),
      /** A schedule problem given as JSON: solved as it is, in any mode (schedule-result.schema.ts). */
      optimization: ScheduleOptimizationSchema.optional(),
    })
    .optional(),
  sheet_context: HybridSheetContextSchema.optional(),
  handsontable_data: z.object({ spreadsheet_data: HybridSpreadsheetDataSchema.optional() }).optional(),
  session_id: z.string().max(200).optional(),
  stream_mode: z.boolean().optional(),
  sheet_id: z.string().max(200).optional(),
  merge_timeline: z.boolean().optional(),
  /** AI Powered: the conversation's last turns (the last AI_CONVERSATION_CONTEXT are given to the model). */
  conversation_context: z.array(ConversationTurnSchema).max(100).optional(),
});
export type HybridForwardRequest = z.infer<typeof HybridForwardRequestSchema>;

/** The sheet a request carries: spreadsheet_data's headers (else sheet_context's) and rows (else data). */
export function hybridRequestSheet(body: HybridForwardRequest): { headers: string[]; rows: GridData } {
  const grid = body.handsontable_data?.spreadsheet_data;
  return {
    headers: grid?.headers ?? body.sheet_context?.headers ?? [],
    rows: grid?.rows ?? grid?.data ?? [],
  };
}

/** What the route accepts: code in Direct Exec (AI Powered may have none), within the cell limit. */
export const HybridForwardBodySchema = HybridForwardRequestSchema.superRefine((body, ctx) => {
  if (!body.enable_ai_generation && !body.code?.trim() && !body.parameters?.optimization) {
    ctx.addIssue({ code: 'custom', path: ['code'], message: DIRECT_EXEC_CODE_REQUIRED_MESSAGE });
  }
  const { headers, rows } = hybridRequestSheet(body);
  let cells = 0;
  for (const row of rows) cells += Math.max(row.length, headers.length);
  const refusal = hybridCellsRefusal(cells);
  if (refusal) ctx.addIssue({ code: 'custom', path: ['handsontable_data', 'spreadsheet_data'], message: refusal });
});

/** Why a sheet of `cells` cells (rows × columns) cannot go with a job; null when it can. */
export function hybridCellsRefusal(cells: number): string | null {
  return cells > HYBRID_MAX_CELLS ? `the sheet has ${cells} cells (rows × columns); at most ${HYBRID_MAX_CELLS} can be sent` : null;
}

export const HYBRID_STAGES = ['analysis', 'code_generation', 'frontend_panels', 'handsontable_updates', 'final_response'] as const;
export type HybridStage = (typeof HYBRID_STAGES)[number];
/** Spec 02 §4: the progress each stage stands for. */
export const HYBRID_STAGE_PROGRESS: Record<HybridStage, number> = {
  analysis: 20,
  code_generation: 40,
  frontend_panels: 60,
  handsontable_updates: 80,
  final_response: 100,
};
/**
 * The stages a /hybrid stream may send: the spec's five, after `queued` (ours, issue 17): the job
 * waits for a slot, and its position is told (progress 0) until it runs.
 */
export const HYBRID_QUEUED_STAGE = 'queued';
export const HYBRID_STREAM_STAGES = [HYBRID_QUEUED_STAGE, ...HYBRID_STAGES] as const;
export type HybridStreamStage = (typeof HYBRID_STREAM_STAGES)[number];

/** Grid data of spec 02 §3: the extracted grid, flagged as an update, with its hash for de-duplication. */
/** The grid of a schedule the solver made (not extracted from code's output). */
export const SCHEDULE_GRID_SOURCE = 'schedule_solver';
const HybridGridSources = [...CODE_RUN_GRID_SOURCES, SCHEDULE_GRID_SOURCE] as const;
export const HybridGridUpdateSchema = z.object({
  headers: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  updated: z.boolean(),
  source: z.enum(HybridGridSources),
  metadata: z.object({ hash: z.string(), detected_by: z.enum(HybridGridSources) }),
});
export type HybridGridUpdate = z.infer<typeof HybridGridUpdateSchema>;

export const HYBRID_STATUSES = ['success', 'failed'] as const;
/** Spec 02 §4 Chat modes: agent-direct (AI generation off), agent-ai (on), chat. */
export const HYBRID_MODES = ['agent-direct', 'agent-ai', 'chat'] as const;

/** One try of AI Powered: the code the provider wrote, and the error it raised (none on the last, good one). */
export const HybridAttemptSchema = z.object({ code: z.string(), error: z.string().optional() });
export type HybridAttempt = z.infer<typeof HybridAttemptSchema>;

/** The AI hybrid response of spec 02 §3, with the fields Direct Exec and AI Powered fill. */
export const HybridResponseSchema = z.object({
  success: z.boolean(),
  status: z.enum(HYBRID_STATUSES),
  message: z.string(),
  /** On failure: the Python traceback's last lines, or the runner's time/memory message. */
  error: z.string().optional(),
  mode: z.enum(HYBRID_MODES),
  execution_output: z.string(),
  result: JsonValueSchema,
  has_grid: z.boolean(),
  grid_update: HybridGridUpdateSchema.optional(),
  /** The figures the code made (Matplotlib PNGs), in order, and how many were left out (issue 19). */
  figures: CodeRunResultSchema.shape.figures,
  figures_omitted: CodeRunResultSchema.shape.figures_omitted,
  /** A grid was found but discarded (not a schedule, or a solver debug log); its message is also in `message`. */
  grid_discarded: GridDiscardSchema.optional(),
  handsontable_data: z
    .object({ spreadsheet_data: z.object({ headers: z.array(z.string()), rows: HybridGridUpdateSchema.shape.rows }) })
    .optional(),
  langchain_result: z.object({ status: z.enum(HYBRID_STATUSES), message: z.string() }),
  /** AI Powered: the final code that ran (the last attempt's). */
  code: z.string().optional(),
  /** AI Powered: every code the provider wrote, in order, with the error each raised (the fix loop). */
  attempts: z.array(HybridAttemptSchema).optional(),
  /** AI Powered: who wrote the code: builtin (no model), openai or vertex, and the model (null for builtin). */
  provider: z.string().optional(),
  model: z.string().nullable().optional(),
  /** The instruction the code was written for (the default one when the prompt was empty). */
  echo_prompt: z.string().optional(),
  /** merge_timeline: the proposal the result grid became, or why none was made (merge-timeline.schema.ts). */
  snapshot: MergeTimelineSnapshotSchema.optional(),
  /** A Tessera chart the AI asked for (issue 20), and where it was made or why not (ai-chart.schema.ts). */
  chart: AiChartSchema.optional(),
  /** /hybrid/backward: where the grid the given code produces differs from the edited grid sent (grid-diff.schema.ts). */
  differences: GridDiffSchema.optional(),
  /** A schedule solve (spec 02 §3): HiGHS's result and the formatted schedule. */
  backend_solver: BackendSolverSchema.optional(),
  solver_status: SolverStatusSchema.optional(),
  /** The solve failed after MAX_SOLVER_RETRIES retries (spec 02 §4). */
  retry_exceeded: z.boolean().optional(),
  /** Why it failed, with numbers: the requirements that conflict (spec 02 §2 Operation Failed panel). */
  suggested_actions: z.array(z.string()).optional(),
  rollback_option: RollbackOptionSchema.optional(),
  /** The schedule problem as given, what was relaxed, and each attempt. */
  schedule: ScheduleRunSchema.optional(),
});
export type HybridResponse = z.infer<typeof HybridResponseSchema>;

/** One Server-Sent Event of POST /hybrid/forward (spec 02 §4, §7), sent as `data: <json>`. */
export const HybridStreamEventSchema = z.object({
  text: z.string(),
  metadata: z.object({
    stage: z.enum(HYBRID_STREAM_STAGES),
    progress: z.number(),
    ui: z.object({ text: z.string(), replace_last: z.boolean() }),
    /** Set on the final_response event. */
    workflow_complete: z.boolean().optional(),
    /** The whole hybrid response, on the final_response event. */
    response: HybridResponseSchema.optional(),
    /** merge_timeline's outcome (spec 02 §7: events carry snapshot), on the final_response event. */
    snapshot: MergeTimelineSnapshotSchema.optional(),
    /** A schedule solve's status as it goes (retrying n of max), for the solver badge. */
    solver_status: SolverStatusSchema.optional(),
    /** On a `queued` event: the job's place in the instance's queue (1 runs next). */
    queue_position: z.number().int().min(1).optional(),
  }),
  error: z.string().nullable(),
  finished: z.boolean(),
});
export type HybridStreamEvent = z.infer<typeof HybridStreamEventSchema>;

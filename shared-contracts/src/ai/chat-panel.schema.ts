import { z } from 'zod';
import { AiChartSchema } from '../charts/ai-chart.schema.js';
import { CellValueSchema } from '../sheets/sheet.schema.js';
import { CodeRunResultSchema } from './code-run.schema.js';
import { HYBRID_STREAM_STAGES, HybridAttemptSchema } from './hybrid.schema.js';
import { RollbackOptionSchema, ScheduleRunSchema, SolverStatusSchema } from '../schedule/schedule-result.schema.js';

/**
 * What the chat panel (mfe-chat) reads from the ai-middleware's hybrid replies (spec 02 §3
 * "AI hybrid response", §4 Streaming, §7). The server's own schemas (HybridResponseSchema,
 * HybridStreamEventSchema) describe what one mode fills; these accept every field the spec
 * lists as optional, so a reply of any mode (Direct Exec, AI Powered, a merged snapshot)
 * parses, and anything else is refused.
 */

/** spec 02 §3: snapshot (version, sheet_id, error): the result was merged into the sheet's timeline, or why not. */
export const HybridSnapshotSchema = z.object({
  version: z.number().int().optional(),
  sheet_id: z.string().optional(),
  error: z.string().optional(),
  /** Set when merge_timeline made a proposal (no version number until accepted): see merge-timeline.schema.ts. */
  version_id: z.string().optional(),
  status: z.literal('proposed').optional(),
  base_version: z.number().int().nullable().optional(),
});
export type HybridSnapshot = z.infer<typeof HybridSnapshotSchema>;

const ReplyGridSchema = z.object({
  headers: z.array(z.string()).optional(),
  rows: z.array(z.array(CellValueSchema)).optional(),
  data: z.array(z.array(CellValueSchema)).optional(),
  updated: z.boolean().optional(),
  source: z.string().optional(),
  metadata: z.looseObject({ hash: z.string().optional(), detected_by: z.string().optional() }).optional(),
});

/** A git file or commit named by a reply (langgraph_data.frontend_panels.git_history). */
export const GitHistoryLinkSchema = z.looseObject({
  path: z.string().optional(),
  file_path: z.string().optional(),
  hash: z.string().optional(),
  commit: z.string().optional(),
  message: z.string().optional(),
});
export type GitHistoryLink = z.infer<typeof GitHistoryLinkSchema>;

/** The AI hybrid response (spec 02 §3) as the panel reads it: every field optional. */
export const HybridReplySchema = z.looseObject({
  success: z.boolean().optional(),
  status: z.string().optional(),
  message: z.string().optional(),
  error: z.string().nullable().optional(),
  mode: z.string().optional(),
  execution_output: z.string().optional(),
  result: z.unknown().optional(),
  has_grid: z.boolean().optional(),
  grid_update: ReplyGridSchema.optional(),
  /** The figures the code made (issue 19): checked strictly, since they become images. */
  figures: CodeRunResultSchema.shape.figures,
  figures_omitted: CodeRunResultSchema.shape.figures_omitted,
  handsontable_data: z.object({ spreadsheet_data: ReplyGridSchema.optional() }).optional(),
  langchain_result: z.object({ status: z.string().optional(), message: z.string().optional() }).optional(),
  snapshot: HybridSnapshotSchema.nullable().optional(),
  /** A Tessera chart the AI asked for (issue 20): the message links to it. */
  chart: AiChartSchema.optional(),
  langgraph_data: z
    .object({
      frontend_panels: z
        .object({
          git_history: z.array(GitHistoryLinkSchema).optional(),
          database_navigation: z.unknown().optional(),
        })
        .optional(),
    })
    .optional(),
  echo_prompt: z.string().optional(),
  /** Agent • AI Powered: the code that ran last, every attempt with its error, and who wrote it. */
  code: z.string().optional(),
  attempts: z.array(HybridAttemptSchema).optional(),
  provider: z.string().optional(),
  model: z.string().nullable().optional(),
  /** A schedule solve (spec 02 §3): backend_solver read loosely, the recovery fields strictly. */
  backend_solver: z
    .looseObject({ result: z.looseObject({ success: z.boolean().optional() }).optional(), schedule_formatted_json: z.unknown().optional() })
    .optional(),
  solver_status: SolverStatusSchema.optional(),
  retry_exceeded: z.boolean().optional(),
  suggested_actions: z.array(z.string()).optional(),
  rollback_option: RollbackOptionSchema.optional(),
  schedule: ScheduleRunSchema.optional(),
});
export type HybridReply = z.infer<typeof HybridReplySchema>;

/** One Server-Sent Event of /hybrid/forward as the panel reads it (spec 02 §4, §7). */
export const HybridReplyEventSchema = z.object({
  text: z.string().optional(),
  metadata: z
    .looseObject({
      stage: z.enum(HYBRID_STREAM_STAGES).optional(),
      progress: z.number().optional(),
      ui: z.object({ text: z.string(), replace_last: z.boolean() }).optional(),
      snapshot: HybridSnapshotSchema.nullable().optional(),
      workflow_complete: z.boolean().optional(),
      response: HybridReplySchema.optional(),
      solver_status: SolverStatusSchema.optional(),
      queue_position: z.number().int().min(1).optional(),
    })
    .optional(),
  error: z.string().nullable().optional(),
  finished: z.boolean().optional(),
});
export type HybridReplyEvent = z.infer<typeof HybridReplyEventSchema>;

/** Spec 02 §8: the failure text of a reply: langchain_result.message when it failed, else message when failed, else error. */
export const OPERATION_FAILED_TEXT = 'Operation failed';
export function hybridFailureMessage(reply: HybridReply): string | null {
  if (reply.langchain_result?.status === 'failed' && reply.langchain_result.message) return reply.langchain_result.message;
  if (reply.status === 'failed') return reply.message || reply.error || OPERATION_FAILED_TEXT;
  if (reply.success === false) return reply.error || reply.message || OPERATION_FAILED_TEXT;
  if (reply.error) return reply.error;
  return null;
}

/** The grid a reply carries: grid_update, else handsontable_data.spreadsheet_data. */
export function hybridReplyGrid(reply: HybridReply): { headers: string[]; rows: (string | number | boolean | null)[][]; hash?: string } | null {
  const grid = reply.grid_update ?? reply.handsontable_data?.spreadsheet_data;
  if (!grid) return null;
  const rows = grid.rows ?? grid.data;
  if (!grid.headers || !rows) return null;
  return { headers: grid.headers, rows, hash: grid.metadata?.hash };
}

/** Spec 02 §9: sheets made from chat results. */
export const CHAT_SHEET_MIN_SIZE = { rows: 20, columns: 10 } as const;
/** Rows added under a result grid in its new sheet (grid rows + 5). */
export const CHAT_SHEET_EXTRA_ROWS = 5;
/** Spec 02 §4: the delay between creating a sheet from chat and populating it. */
export const CHAT_SHEET_POPULATE_DELAY_MS = 500;
/** Spec 02 §9: auto names, followed by the time of day as HH-MM-SS. */
export const AI_SHEET_BASE_NAME = 'AI Generated Sheet';
export const SCHEDULE_SHEET_BASE_NAME = 'Schedule';

/** Spec 02 §8 texts of sheets made from chat. */
export const errorCreatingScheduleSheet = (reason: string) => `❌ Error creating schedule sheet: ${reason}`;
export const CREATE_SHEET_EMPTY_ID = 'createSheet returned empty id';
/** Spec 02 §8: the chat reply failed; the reason, else 'Unknown error'. */
export const chatSubmitFailed = (reason: string | null) => `Chat submit failed: ${reason || 'Unknown error'}`;
/** Shown while the ai-middleware's /health fails: sending is off until it answers (no legacy mode here). */
export const MIDDLEWARE_UNAVAILABLE_MESSAGE = '⚠️ Middleware server not available...';
/** Spec 02 §8: the session list could not be read. */
export const CONTEXT_FEATURES_UNAVAILABLE = 'Context features unavailable';

/** A chat call's JSON reply as the panel reads it (spec 02 §7: "the reply's response or message is shown"). */
export const ChatReplyTextSchema = z
  .looseObject({ response: z.string().optional(), message: z.string().optional(), session_id: z.string().nullable().optional() })
  .refine((r) => r.response !== undefined || r.message !== undefined, { error: 'The reply has neither response nor message' });

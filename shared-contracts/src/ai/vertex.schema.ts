import { z } from 'zod';
import { AI_TEMPERATURE, FILE_TREE_CAP } from '../constants.js';
import { CELL_MAX_LENGTH, CellValueSchema, SHEET_MAX_COLUMNS } from '../sheets/sheet.schema.js';
import { CHAT_MESSAGE_MAX_LENGTH, ChatRoleSchema } from './session.schema.js';

/**
 * The chat calls of spec 02 §7: POST /vertex/chat, /vertex/stream and
 * /vertex/enhanced-conversation. The names keep the spec's "vertex" whatever provider
 * (AI_PROVIDER) answers. Unknown fields ("message plus extra fields") are dropped.
 */

export const CHAT_PROMPT_MAX_LENGTH = 20_000;
/** Most selected cells a request carries with their values (a larger selection is cut to this). */
export const WORKSPACE_SELECTION_MAX = 1_000;

/** Spec 02 §8, exact: the stream call failed (the provider's text follows). */
export const VERTEX_STREAM_FAILED = 'Vertex AI stream failed';
/** Spec 02 §8, exact: the 10-minute stream limit. */
export const STREAM_TIMED_OUT = 'Stream timed out after 10 minutes';

const Headers = z.array(z.string().max(CELL_MAX_LENGTH)).max(SHEET_MAX_COLUMNS);

/** A selected cell (spec 02 §3 Cell selection, zero-based) with its value when the client has it. */
export const SelectedCellSchema = z.object({
  row: z.number().int().min(0),
  col: z.number().int().min(0),
  value: CellValueSchema.optional(),
});

/** Workspace context → current_sheet (spec 02 §3), plus the first rows the model may see. */
export const WorkspaceSheetSchema = z.object({
  id: z.string().max(200).optional(),
  name: z.string().max(255).optional(),
  headers: Headers.optional(),
  selected_cells: z.array(SelectedCellSchema).optional(),
  total_rows: z.number().int().min(0).optional(),
  total_columns: z.number().int().min(0).optional(),
  last_modified: z.string().max(100).optional(),
  /** The first AI_SAMPLE_ROWS rows (spec 02 §9); more are cut. */
  sample_rows: z.array(z.array(CellValueSchema).max(SHEET_MAX_COLUMNS)).optional(),
});
export type WorkspaceSheet = z.infer<typeof WorkspaceSheetSchema>;

export const GitContextCommitSchema = z.object({
  hash: z.string().max(64).optional(),
  message: z.string().max(2000),
  author: z.string().max(200).optional(),
  timestamp: z.string().max(100).optional(),
});

/** Workspace context → git_context (spec 02 §3). The middleware fills branch and commits from its repository. */
export const GitContextSchema = z.object({
  branch: z.string().max(200).optional(),
  recent_commits: z.array(GitContextCommitSchema).max(50).optional(),
  modified_files: z.array(z.string().max(1000)).max(FILE_TREE_CAP).optional(),
  selected_files: z.array(z.string().max(1000)).max(FILE_TREE_CAP).optional(),
});
export type GitContext = z.infer<typeof GitContextSchema>;

/** How many functions one message may name. */
export const SELECTED_FUNCTIONS_MAX = 100;

export const SelectedFunctionSchema = z.object({
  id: z.string().max(200).optional(),
  name: z.string().max(200),
  file_path: z.string().max(1000).optional(),
  description: z.string().max(2000).optional(),
});
export type SelectedFunction = z.infer<typeof SelectedFunctionSchema>;

/** Workspace context (spec 02 §3). */
export const WorkspaceContextSchema = z.object({
  current_sheet: WorkspaceSheetSchema.nullable().optional(),
  git_context: GitContextSchema.optional(),
  selected_functions: z.array(SelectedFunctionSchema).max(SELECTED_FUNCTIONS_MAX).optional(),
  /** The spec's field; this product has no database connections, so it is accepted and not used. */
  database_connections: z.array(z.unknown()).max(20).optional(),
  recent_activities: z.array(z.object({ description: z.string().max(1000), timestamp: z.string().max(100).optional() })).max(50).optional(),
});
export type WorkspaceContext = z.infer<typeof WorkspaceContextSchema>;

/** One turn of conversation_context (spec 02 §3: role, content, timestamp). */
export const ConversationTurnSchema = z.object({
  role: ChatRoleSchema,
  content: z.string().max(CHAT_MESSAGE_MAX_LENGTH),
  timestamp: z.string().max(100).optional(),
});
export type ConversationTurn = z.infer<typeof ConversationTurnSchema>;

/** POST /vertex/chat and /vertex/stream: message, temperature (0.7), session_id, stream_mode. */
export const VertexChatRequestSchema = z.object({
  message: z
    .string({ error: 'message is required' })
    .trim()
    .min(1, { error: 'message is required' })
    .max(CHAT_PROMPT_MAX_LENGTH, { error: `message cannot exceed ${CHAT_PROMPT_MAX_LENGTH} characters` }),
  temperature: z.number().min(0).max(2).default(AI_TEMPERATURE),
  session_id: z.string().max(200).optional(),
  stream_mode: z.boolean().optional(),
  /** The spec's locally generated id: accepted and ignored (the token decides the user). */
  user_id: z.string().max(200).optional(),
  workspace_context: WorkspaceContextSchema.optional(),
  /** Used when no workspace_context.current_sheet is given. */
  sheet_context: WorkspaceSheetSchema.optional(),
  /** The client's last turns; the session's stored messages are used instead when there are any. */
  conversation_context: z.array(ConversationTurnSchema).max(100).optional(),
});
export type VertexChatRequest = z.infer<typeof VertexChatRequestSchema>;

/** POST /vertex/enhanced-conversation (spec 02 §3 Enhanced message request). A session is required. */
export const EnhancedConversationRequestSchema = VertexChatRequestSchema.extend({
  preferences: z
    .object({
      response_format: z.enum(['markdown', 'text']).optional(),
      include_code_examples: z.boolean().optional(),
      detail_level: z.enum(['brief', 'normal', 'detailed']).optional(),
    })
    .optional(),
});
export type EnhancedConversationRequest = z.infer<typeof EnhancedConversationRequestSchema>;

/** The JSON reply of the chat calls: the panel shows `response` (spec 02 §7: "the reply's response or message"). */
export const VertexChatReplySchema = z.object({
  success: z.literal(true),
  response: z.string(),
  session_id: z.string().nullable(),
  provider: z.string(),
  /** null: the builtin provider, which has no model. */
  model: z.string().nullable(),
  /** What the model was given besides the message: the counts, for the panel's context summary. */
  context: z.object({ messages: z.number().int().min(0), sheet: z.string().nullable(), git_commits: z.number().int().min(0) }),
});
export type VertexChatReply = z.infer<typeof VertexChatReplySchema>;

/**
 * One Server-Sent Event of /vertex/stream (and of the other chat calls with
 * `Accept: text/event-stream`), sent as `data: <json>`: each chunk of the reply as it
 * comes, then a last event with finished true and either the whole reply or the error.
 */
export const VertexStreamEventSchema = z.object({
  text: z.string(),
  finished: z.boolean(),
  error: z.string().nullable(),
  /** The whole reply, on the last event of a successful stream. */
  response: z.string().optional(),
  session_id: z.string().nullable(),
});
export type VertexStreamEvent = z.infer<typeof VertexStreamEventSchema>;

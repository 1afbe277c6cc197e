import {
  AI_CONVERSATION_CONTEXT,
  AI_SAMPLE_ROWS,
  type ConversationTurn,
  type EnhancedConversationRequest,
  type GitContext,
  WORKSPACE_SELECTION_MAX,
  type WorkspaceContext,
  type WorkspaceSheet,
} from '@tessera/contracts';
import type { ChatMessage } from '../providers/provider.js';
import type { GitFileText } from '../hybrid/git-files.js';

/** Everything a chat call gives the model besides the user's message. */
export interface ChatContext {
  sheet: WorkspaceSheet | null;
  git: GitContext;
  files: GitFileText[];
  activities: { description: string; timestamp?: string }[];
  /** Functions of the repository the user picked (spec 02 §3 selected_functions). */
  functions: NonNullable<WorkspaceContext['selected_functions']>;
  /** The conversation so far, oldest first (at most AI_CONVERSATION_CONTEXT turns are used). */
  history: ConversationTurn[];
  preferences?: EnhancedConversationRequest['preferences'];
}

const SYSTEM_INTRO =
  'You are the AI assistant of Tessera, a collaborative spreadsheet workspace with a code repository. ' +
  'Answer the user about their sheets, data and code. When you show code, use Python in fenced code blocks; ' +
  'in Tessera, code run on a sheet sees `headers` (list of str), `rows` (list of lists), `records` (a dict per row) ' +
  'and `sheet`, and what it assigns to `result` becomes a grid. Say so when the context below does not hold what is needed.';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/\s+/g, ' ').slice(0, 200);
}

function describeSheet(sheet: WorkspaceSheet): string[] {
  const lines = [`Current sheet: ${sheet.name ?? '(unnamed)'}${sheet.id ? ` (id ${sheet.id})` : ''}`];
  if (sheet.total_rows !== undefined || sheet.total_columns !== undefined) {
    lines.push(`Size: ${sheet.total_rows ?? '?'} rows × ${sheet.total_columns ?? sheet.headers?.length ?? '?'} columns`);
  }
  if (sheet.last_modified) lines.push(`Last modified: ${sheet.last_modified}`);
  if (sheet.headers?.length) lines.push(`Headers: ${sheet.headers.map(cell).join(' | ')}`);
  const sample = (sheet.sample_rows ?? []).slice(0, AI_SAMPLE_ROWS);
  if (sample.length) {
    lines.push(`First ${sample.length} rows:`);
    for (const row of sample) lines.push(`  ${row.map(cell).join(' | ')}`);
  }
  const selected = (sheet.selected_cells ?? []).slice(0, WORKSPACE_SELECTION_MAX);
  if (selected.length) {
    const named = selected.map((c) => {
      const column = sheet.headers?.[c.col] ?? `column ${c.col + 1}`;
      return `row ${c.row + 1}, ${column}${c.value === undefined ? '' : ` = ${cell(c.value)}`}`;
    });
    lines.push(`Selected cells (${sheet.selected_cells?.length ?? 0}): ${named.join('; ')}`);
  }
  return lines;
}

function describeGit(git: GitContext, files: GitFileText[]): string[] {
  const lines = [`Git branch: ${git.branch ?? 'main'}`];
  const commits = git.recent_commits ?? [];
  if (commits.length) {
    lines.push('Recent commits:');
    for (const c of commits) lines.push(`  ${c.hash?.slice(0, 7) ?? ''} ${c.message.split('\n')[0]}${c.author ? ` (${c.author})` : ''}`);
  } else {
    lines.push('The repository has no commits yet.');
  }
  if (git.modified_files?.length) lines.push(`Modified files: ${git.modified_files.join(', ')}`);
  if (git.selected_files?.length) lines.push(`Selected files: ${git.selected_files.join(', ')}`);
  for (const f of files) {
    if (!f.content) {
      lines.push(`File ${f.path}: ${f.note ?? 'empty'}`);
      continue;
    }
    lines.push(`Content of ${f.path}${f.note ? ` (${f.note})` : ''}:`, '```', f.content, '```');
  }
  return lines;
}

function describePreferences(p: NonNullable<ChatContext['preferences']>): string[] {
  const lines: string[] = [];
  if (p.response_format) lines.push(`Answer in ${p.response_format === 'markdown' ? 'Markdown' : 'plain text'}.`);
  if (p.include_code_examples !== undefined) lines.push(p.include_code_examples ? 'Include code examples where they help.' : 'Do not include code examples.');
  if (p.detail_level) lines.push(`Detail level: ${p.detail_level}.`);
  return lines;
}

/** The messages for the provider: the system prompt with the workspace context, the last turns, then the user's message. */
export function buildChatMessages(message: string, context: ChatContext): ChatMessage[] {
  const system = [SYSTEM_INTRO, '', ...(context.sheet ? describeSheet(context.sheet) : ['No sheet is open.'])];
  system.push('', ...describeGit(context.git, context.files));
  if (context.functions.length) {
    system.push('', 'Selected functions:');
    for (const f of context.functions) {
      system.push(`  ${f.name}${f.file_path ? ` (${f.file_path})` : ''}${f.description ? `: ${f.description}` : ''}`);
    }
  }
  if (context.activities.length) {
    system.push('', 'Recent activities:', ...context.activities.map((a) => `  ${a.timestamp ? `${a.timestamp} ` : ''}${a.description}`));
  }
  if (context.preferences) system.push('', ...describePreferences(context.preferences));
  const history = context.history.slice(-AI_CONVERSATION_CONTEXT).map((turn): ChatMessage => ({ role: turn.role, content: turn.content }));
  return [{ role: 'system', content: system.join('\n') }, ...history, { role: 'user', content: message }];
}

import { AI_CONVERSATION_CONTEXT, AI_SAMPLE_ROWS, type ConversationTurn, type GridData } from '@tessera/contracts';
import type { ChatMessage } from '../providers/provider.js';
import type { RunnerEngine } from '../runner/code-runner.js';
import type { GitFileText } from './git-files.js';
import { SCHEDULE_PROMPT } from '../schedule/input/schedule-prompt.js';

/**
 * What the model is told about the code it writes: the runner's code contract (README), for the
 * engine that will run it — the gVisor engine's CPython has pandas & co. and the sheet as `df`;
 * Pyodide has the standard library only. Before the engine is chosen, the Pyodide contract (code
 * written for it runs on both).
 */
export function codeSystemPrompt(engine?: RunnerEngine): string {
  const gvisor = engine?.name === 'gvisor';
  const packages = Object.keys(engine?.packages ?? {}).filter((name) => name !== 'python');
  return [
    'You write Python 3 programs that run on a spreadsheet.',
    gvisor
      ? `The program runs in CPython ${engine?.packages.python ?? '3'} with these packages: ${packages.join(', ')}; no network, no files outside /tmp, no input().`
      : 'The program runs in Pyodide with the standard library only: no numpy, no pandas, no network, no files, no input().',
    'It gets these variables, already defined:',
    '- headers: list of str, the column names',
    '- rows: list of lists, one per row; cells are str, int, float, bool or None (numbers may arrive as text such as "1,200")',
    '- records: list of dicts, one per row, keyed by header',
    '- sheet: dict with name, headers and rows',
    ...(gvisor
      ? ['- df: a pandas DataFrame of the sheet, the headers as its columns, numbers (also "1,200") as numbers; pd and np are pandas and numpy']
      : []),
    'Assign the answer to `result`:',
    '- a table as {"headers": [...], "rows": [[...], ...]}; to change the sheet itself (sort, filter, edit), keep its headers and return all the rows it should have',
    ...(gvisor ? ["- or a pandas DataFrame (its columns in order; a groupby's keys become columns)"] : []),
    '- or a single value (a number or a text)',
    ...(gvisor ? ['For a chart, draw it with matplotlib (or seaborn) and call plt.show(): each figure is shown to the user as an image, in order'] : []),
    'What the program prints is shown to the user: print a short explanation of the answer.',
    ...CHART_JSON_PROMPT,
    'Reply with the whole program in one ```python code block, and nothing else (but that optional ```chart-json block).',
  ].join('\n');
}

/**
 * How a model asks for a Tessera chart (issue 20; hybrid/ai-chart.ts reads the block): a chart in
 * the sheet that users move, edit and see update live, on either engine (it needs no Matplotlib).
 */
export const CHART_JSON_PROMPT = [
  'When the user asks for a chart (or one would show the answer best), you may also add a chart to their sheets, which they can move and edit: after the program, a ```chart-json block with one JSON object:',
  '{"target": "result" (over the table the program returns: it becomes a new sheet) or "sheet" (over cells of this sheet), "type": "column" | "bar" | "line" | "area" | "pie" | "scatter" | "combo", "range": "A1:B10" (A1 is the first row under the headers; leave it out with "result" to chart the whole table), "categories": "first_column" (default) or "header_row", "title": "...", "x_axis_title": "...", "y_axis_title": "..."}',
];

/** The contract for the Pyodide engine (and before an engine is chosen). */
export const CODE_SYSTEM_PROMPT = codeSystemPrompt();

export interface CodeTask {
  instruction: string;
  sheetName: string | undefined;
  headers: string[];
  rows: GridData;
  /** Code sent with the request (the chat's code box), for the model to use or adapt. */
  code: string | undefined;
  files: GitFileText[];
  conversation: ConversationTurn[] | undefined;
}

/**
 * The conversation that asks for the code: the system prompt (the code contract, then how a
 * staff-scheduling request is answered instead), the last turns, then the task.
 */
export function codeMessages(task: CodeTask, engine?: RunnerEngine): ChatMessage[] {
  const turns = (task.conversation ?? [])
    .filter((turn) => turn.role !== 'system' && turn.content.trim())
    .slice(-AI_CONVERSATION_CONTEXT)
    .map((turn): ChatMessage => ({ role: turn.role as 'user' | 'assistant', content: turn.content }));
  const parts = [
    `Instruction: ${task.instruction}`,
    '',
    `Sheet ${task.sheetName ? JSON.stringify(task.sheetName) : '(unnamed)'}: ${task.rows.length} rows × ${task.headers.length} columns.`,
    `Headers: ${JSON.stringify(task.headers)}`,
    `First ${Math.min(AI_SAMPLE_ROWS, task.rows.length)} rows (JSON): ${JSON.stringify(task.rows.slice(0, AI_SAMPLE_ROWS))}`,
  ];
  if (task.code?.trim()) parts.push('', 'Code sent with the request (use or adapt it):', '```python', task.code.trim(), '```');
  for (const file of task.files) {
    parts.push('', `File ${file.path} from the repository${file.note ? ` (${file.note})` : ''}:`, '```', file.content, '```');
  }
  return [{ role: 'system', content: `${codeSystemPrompt(engine)}\n\n${SCHEDULE_PROMPT}` }, ...turns, { role: 'user', content: parts.join('\n') }];
}

/** The turn that sends a raised error back to the model (the fix loop). */
export function fixRequest(error: string, output: string): ChatMessage {
  const printed = output.trim() ? `\nIt printed this before failing:\n\`\`\`\n${output.trim().slice(-2000)}\n\`\`\`` : '';
  return {
    role: 'user',
    content: `Running that program failed with this error:\n\`\`\`\n${error}\n\`\`\`${printed}\nFix it. Reply with the whole corrected program in one \`\`\`python code block, and nothing else.`,
  };
}

/**
 * The program in a model's reply: its python code block (else its first code block); a reply
 * with no block at all is taken as code as it is (a syntax error then goes back as a fix).
 */
export function extractCode(reply: string): string | null {
  const blocks = [...reply.matchAll(/```[ \t]*([\w+-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g)];
  const python = blocks.find((block) => /^(?:python3?|py)$/i.test(block[1] ?? ''));
  const chosen = (python ?? blocks[0])?.[2];
  const code = (chosen ?? (blocks.length ? '' : reply)).trim();
  return code ? code : null;
}

import type { GitFileChange, GitRecommendations } from '@tessera/contracts';
import { extensionOf } from './listing-rules.js';
import { findPythonFunctions } from './python-functions.js';
import { findTypeScriptFunctions } from './typescript-functions.js';
import { fileDiff } from './unified-diff.js';

export interface ChangeWithBase {
  change: GitFileChange;
  /** The file's text at the head, null when it does not exist there. */
  current: string | null;
}

type Kind = 'add' | 'update' | 'delete';

// Beyond these the change deserves a branch and a review.
const LOW = { lines: 50, files: 3 };
const HIGH = { lines: 300, files: 10 };

function functionNames(filePath: string, text: string | null): Set<string> {
  if (text === null) return new Set();
  const ext = extensionOf(filePath);
  const found = ext === 'py' ? findPythonFunctions(text) : ext === 'ts' || ext === 'tsx' ? findTypeScriptFunctions(text) : [];
  return new Set(found.map((f) => f.name));
}

function commonFolder(paths: string[]): string {
  const folders = paths.map((p) => p.split('/').slice(0, -1));
  const first = folders[0] ?? [];
  let n = 0;
  while (n < first.length && folders.every((f) => f[n] === first[n])) n += 1;
  return first.slice(0, n).join('/');
}

const plural = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/**
 * The deterministic recommendations used when no model is configured: a
 * summary of the diff against the head (what changed, how much, and whether
 * a file or a function disappears).
 */
export function summarizeChanges(items: ChangeWithBase[]): GitRecommendations {
  const changed: { path: string; kind: Kind; lines: number }[] = [];
  const removedFunctions: string[] = [];
  for (const { change, current } of items) {
    const next = change.action === 'delete' ? null : change.content;
    if (next === current) continue;
    const { file } = fileDiff(change.path, current, next);
    const kind: Kind = current === null ? 'add' : next === null ? 'delete' : 'update';
    changed.push({ path: change.path, kind, lines: file.additions + file.deletions });
    const after = functionNames(change.path, next);
    for (const name of functionNames(change.path, current)) if (!after.has(name)) removedFunctions.push(`${change.path}:${name}`);
  }
  const lines = changed.reduce((sum, c) => sum + c.lines, 0);
  const deleted = changed.filter((c) => c.kind === 'delete');
  const breaking = deleted.length > 0 || removedFunctions.length > 0;
  const complexity =
    lines > HIGH.lines || changed.length > HIGH.files ? 'high' : lines > LOW.lines || changed.length > LOW.files ? 'medium' : 'low';

  let message: string;
  if (changed.length === 0) message = 'No changes';
  else if (changed.length === 1) message = `${capital(changed[0].kind)} ${changed[0].path}`;
  else {
    const kinds = (['add', 'update', 'delete'] as const)
      .map((k) => [k, changed.filter((c) => c.kind === k).length] as const)
      .filter(([, n]) => n > 0);
    const folder = commonFolder(changed.map((c) => c.path));
    const where = folder ? ` in ${folder}/` : '';
    message =
      kinds.length === 1
        ? `${capital(kinds[0][0])} ${plural(kinds[0][1])}${where}`
        : `${capital(kinds.map(([k, n]) => `${k} ${plural(n)}`).join(', '))}${where}`;
  }

  const reasons: string[] = [];
  if (deleted.length) reasons.push(`deletes ${deleted.map((d) => d.path).join(', ')}`);
  if (removedFunctions.length) reasons.push(`removes ${removedFunctions.map((f) => f.split(':')[1]).join(', ')}()`);
  if (complexity !== 'low') reasons.push(`${lines} changed lines in ${plural(changed.length)}`);
  const first = changed[0]?.path.split('/').at(-1)?.replace(/\.[^.]*$/, '') ?? 'change';
  const slug = first.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'change';
  const branch_recommendations =
    breaking || complexity !== 'low'
      ? [{ name: `feature/${changed[0]?.kind ?? 'update'}-${slug}`, description: `Commit on a branch and review before merging into main: this change ${reasons.join('; ')}.` }]
      : [{ name: 'main', description: `Small change (${lines} changed line${lines === 1 ? '' : 's'} in ${plural(changed.length)}): commit directly to main.` }];

  return {
    suggested_commit_message: message,
    affected_files: changed.map((c) => c.path),
    branch_recommendations,
    collaboration_impact: {
      breaking_changes: breaking,
      review_required: breaking || complexity !== 'low',
      merge_complexity: complexity,
      team_notification: breaking,
    },
    source: 'summary',
  };
}

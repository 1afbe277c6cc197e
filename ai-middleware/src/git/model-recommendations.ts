import type { GitRecommendations } from '@tessera/contracts';
import { z } from 'zod';
import { type AiProvider, type ChatMessage, complete } from '../providers/provider.js';
import type { ChangeWithBase } from './recommendations.js';
import { fileDiff } from './unified-diff.js';

/** The model sees at most this much of the diff; a bigger change is summarised by its file list. */
const DIFF_PROMPT_MAX_CHARS = 40_000;

/** What the model is asked to answer; the facts (files, breaking, complexity) stay the summary's. */
const ModelAnswerSchema = z.object({
  suggested_commit_message: z.string().trim().min(1).max(500),
  branch_recommendations: z
    .array(z.object({ name: z.string().trim().min(1).max(100), description: z.string().trim().min(1).max(500) }))
    .min(1)
    .max(5),
});

const SYSTEM_PROMPT = [
  'You review a change to a team repository before it is committed.',
  'Answer with one JSON object and nothing else:',
  '{"suggested_commit_message": "<imperative summary, first line at most 72 characters>",',
  ' "branch_recommendations": [{"name": "<branch>", "description": "<why>"}]}',
  'Recommend "main" for a small safe change, a feature/ or fix/ branch with a review otherwise.',
].join('\n');

function prompt(items: ChangeWithBase[], summary: GitRecommendations): ChatMessage[] {
  let diff = '';
  for (const { change, current } of items) {
    const { patch } = fileDiff(change.path, current, change.action === 'delete' ? null : change.content);
    diff += `${patch}\n`;
  }
  if (diff.length > DIFF_PROMPT_MAX_CHARS) diff = `${diff.slice(0, DIFF_PROMPT_MAX_CHARS)}\n[diff cut at ${DIFF_PROMPT_MAX_CHARS} characters]`;
  const impact = summary.collaboration_impact;
  const facts = [
    `Files: ${summary.affected_files.join(', ')}`,
    `Breaking (a file or a function removed): ${impact.breaking_changes ? 'yes' : 'no'}`,
    `Size: ${impact.merge_complexity} merge complexity`,
  ].join('\n');
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `${facts}\n\nUnified diff:\n${diff}` },
  ];
}

/** The JSON object in a reply (models often wrap it in a code fence or a sentence). */
function jsonIn(reply: string): unknown {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(reply.slice(start, end + 1));
  } catch {
    return null;
  }
}

/**
 * Recommendations written by the configured model: its commit message and branch advice, on
 * top of the deterministic summary's facts (affected files, collaboration impact). Throws when
 * the model fails or answers something else than the asked JSON; the caller falls back to the
 * summary.
 */
export async function modelRecommendations(provider: AiProvider, items: ChangeWithBase[], summary: GitRecommendations): Promise<GitRecommendations> {
  const reply = await complete(provider, prompt(items, summary), { temperature: 0.2 });
  const answer = ModelAnswerSchema.safeParse(jsonIn(reply));
  if (!answer.success) throw new Error(`the model did not answer the asked JSON: ${reply.slice(0, 200)}`);
  return { ...summary, ...answer.data, source: 'model' };
}

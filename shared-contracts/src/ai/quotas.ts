/**
 * Issue 17 §1: bounded Python jobs and solves, and per-user quotas on what is stored outside
 * sheets. The defaults live here; each service's config.ts lets an env var override them (the
 * root README's Configuration table says why each default is what it is). The texts are what
 * the user reads in the 413/429 error body.
 */

/** HTTP 429 when a job would have to wait and the instance's queue is full. */
export const JOB_QUEUE_FULL_MESSAGE = 'Too many jobs waiting; try again in a moment';

export const JOB_DEFAULTS = {
  /** Jobs (code runs, AI Powered calls, solves) one user may have running at once (JOBS_PER_USER). */
  perUser: 2,
  /** Schedule solves one user may have running at once (SOLVES_PER_USER). */
  solvesPerUser: 1,
  /** Jobs waiting for a slot on one instance (JOB_QUEUE_MAX). */
  queueMax: 20,
  /** Code jobs running at once on one instance (JOBS_MAX_RUNNING): each holds a Pyodide child. */
  maxRunning: 4,
} as const;

/** The progress line of a job that waits its turn (position 1 runs next). */
export function jobQueuedText(position: number): string {
  return `Waiting in queue (position ${position})`;
}

export const QUOTA_DEFAULTS = {
  /** Chat sessions one user may keep (AI_SESSIONS_PER_USER). */
  sessionsPerUser: 100,
  /** Messages one chat session may hold (AI_MESSAGES_PER_SESSION). */
  messagesPerSession: 2000,
  /** File content one git commit may add, in MB (GIT_COMMIT_MAX_MB). */
  gitCommitMaxMb: 5,
  /** File content one user may commit in a UTC day, in MB (GIT_DAILY_MAX_MB). */
  gitDailyMaxMb: 50,
  /** Figures (PNG, as base64) one user's chat sessions keep, in MB; the oldest go first (AI_FIGURES_PER_USER_MB). */
  figuresPerUserMb: 16,
  /** Open (proposed, not yet accepted or discarded) versions one user may have on one sheet. */
  proposalsPerUserPerSheet: 50,
} as const;

/** A size in MB as the texts show it: whole numbers plain, others to one decimal. */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1);
}

export const QUOTA_TEXTS = {
  /** 429 on POST /vertex/user-sessions {action: 'create'}. */
  sessions: (max: number) => `You have ${max} chat sessions, the most one user may keep; delete one to create another`,
  /** 429 on a chat or hybrid call naming a session that is full. */
  messages: (max: number) => `This chat session holds ${max} messages, the most one session may keep; start a new session`,
  /** 413 on POST /git/commits. */
  gitCommit: (bytes: number, maxBytes: number) =>
    `This commit adds ${megabytes(bytes)} MB of file content; at most ${megabytes(maxBytes)} MB can be committed at once`,
  /** 429 on POST /git/commits. */
  gitDaily: (maxBytes: number) => `You have reached today's limit of ${megabytes(maxBytes)} MB of committed file content; try again tomorrow (UTC)`,
  /** 429 on POST /api/v1/sheets/{id}/versions. */
  proposals: (max: number) => `You have ${max} open proposals on this sheet, the most one user may keep; accept or discard some first`,
} as const;

import {
  type GitCommitRequest,
  type GitCommitResponse,
  GitCommitResponseSchema,
  GitConflictBodySchema,
  type GitConflictDetails,
  GitCommitGraphResponseSchema,
  type GitCommitGraphResponse,
  type GitFileChange,
  GitFileContentSchema,
  type GitFileContent,
  GitHistoryResponseSchema,
  type GitHistoryResponse,
  GitRecommendationsSchema,
  type GitRecommendations,
  GitTreeResponseSchema,
  type GitTreeResponse,
  describeError,
  errorStatus,
  type AxiosInstance,
  HISTORY_PAGE_SIZE,
  COMMIT_GRAPH_LIMIT,
} from '@tessera/contracts';

/** What a commit call came to: the spec's three outcomes (spec 02 §4 Code file) and a plain failure. */
export type CommitOutcome =
  | { kind: 'committed'; response: GitCommitResponse }
  | { kind: 'conflict'; message: string; details: GitConflictDetails }
  | { kind: 'no-response' }
  | { kind: 'failed'; message: string };

/** The body of a failed call's reply (the contracts type the client without exposing axios). */
const replyBody = (err: unknown): unknown => (err as { response?: { data?: unknown } }).response?.data;

/** An empty 2xx body counts as no response, as a dropped connection does (spec 02 §9: retry delay after an empty commit response). */
const isEmptyBody = (data: unknown) => data === undefined || data === null || data === '';

/**
 * The ai-middleware's /git routes (spec 02 §7 Repository), through the
 * shell's authenticated client (`shell.ai`, base /ai). Every answer is parsed
 * with the contracts' schemas.
 */
export class GitClient {
  constructor(private readonly http: AxiosInstance) {}

  async history(limit: number = HISTORY_PAGE_SIZE, identifier?: string): Promise<GitHistoryResponse> {
    const { data } = await this.http.get('/git/history', { params: { limit, ...(identifier ? { identifier } : {}) } });
    return GitHistoryResponseSchema.parse(data);
  }

  async tree(): Promise<GitTreeResponse> {
    const { data } = await this.http.get('/git/tree', { responseType: 'json' });
    // Spec 02 §5: the git tree response must be JSON.
    if (typeof data !== 'object' || data === null) throw new Error('The git tree response is not JSON');
    return GitTreeResponseSchema.parse(data);
  }

  async content(path: string, commit?: string): Promise<GitFileContent> {
    const { data } = await this.http.get('/git/code-content', { params: { identifier: path, ...(commit ? { commit } : {}) } });
    return GitFileContentSchema.parse(data);
  }

  async commitGraph(limit: number = COMMIT_GRAPH_LIMIT): Promise<GitCommitGraphResponse> {
    const { data } = await this.http.get('/git/commit-graph', { params: { limit } });
    return GitCommitGraphResponseSchema.parse(data);
  }

  async recommendations(changes: GitFileChange[]): Promise<GitRecommendations> {
    const { data } = await this.http.post('/git/recommendations', { changes });
    return GitRecommendationsSchema.parse(data);
  }

  /** POST /git/commits: a 409 is read as a conflict body; no answer (or an empty one) is `no-response`. */
  async commit(request: GitCommitRequest): Promise<CommitOutcome> {
    try {
      const { data } = await this.http.post('/git/commits', request);
      if (isEmptyBody(data)) return { kind: 'no-response' };
      const parsed = GitCommitResponseSchema.safeParse(data);
      return parsed.success ? { kind: 'committed', response: parsed.data } : { kind: 'failed', message: 'Unexpected answer from the repository' };
    } catch (err) {
      const status = errorStatus(err);
      if (status === undefined) return { kind: 'no-response' };
      if (status === 409) {
        const body = GitConflictBodySchema.safeParse(replyBody(err));
        if (body.success) return { kind: 'conflict', message: body.data.error.message, details: body.data.error.details };
      }
      return { kind: 'failed', message: describeError(err) };
    }
  }
}

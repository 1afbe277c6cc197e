import {
  GitCommitRequestSchema,
  GitRecommendationsRequestSchema,
  type GitCommit,
  type GitCommitResponse,
  type GitFileContent,
  type GitHistoryResponse,
  type GitRecommendations,
  type GitTreeNode,
  type GitTreeResponse,
} from '@tessera/contracts';
import { createHash } from 'node:crypto';
import { apiError, json, startLoopbackServer } from '@tessera/jest-react/loopback';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Test support: a loopback server (tooling/jest-react) answering the /git routes as
 * the ai-middleware does (same bodies, validated with the contracts), over an
 * in-memory history. The ai-middleware's own tests check the real repository;
 * these check the panel against the same contract.
 */
interface StoredCommit extends GitCommit {
  files: Map<string, string>;
}

export interface GitTestApi {
  url: string;
  /** Method and path of every request, in order. */
  calls: string[];
  /** Request bodies of POST /git/commits, in order. */
  commitBodies: unknown[];
  /** Commits directly (as another user would), returns the new head. */
  commitAs(author: string, files: Record<string, string>, message?: string): string;
  head(): string | null;
  fileAtHead(path: string): string | undefined;
  /** The next POST /git/commits is applied (or not) and the connection dropped with no answer. */
  dropNextCommit(apply: boolean): void;
  /** Every GET /git/code-content answers 500 from now on. */
  failContent(on: boolean): void;
  /** Every GET /git/history answers 500 from now on. */
  failHistory(on: boolean): void;
  /**
   * POST /hybrid/forward (the same ai-middleware origin): answered by this function when set
   * (a test plays the code runner's part with a reply of the contracts' shape), else 404.
   */
  hybridForward: ((body: unknown) => { status: number; body: unknown }) | null;
  close(): Promise<void>;
}


function treeOf(paths: string[]): GitTreeNode[] {
  const root: GitTreeNode = { name: '', path: '', type: 'directory', children: [] };
  for (const p of paths) {
    const parts = p.split('/');
    let node = root;
    parts.forEach((name, i) => {
      const isFile = i === parts.length - 1;
      let child = node.children!.find((c) => c.name === name);
      if (!child) {
        child = { name, path: parts.slice(0, i + 1).join('/'), type: isFile ? 'file' : 'directory', ...(isFile ? {} : { children: [] }) };
        node.children!.push(child);
      }
      node = child;
    });
  }
  return root.children!;
}

export async function startGitApi(): Promise<GitTestApi> {
  const calls: string[] = [];
  const commitBodies: unknown[] = [];
  const commits: StoredCommit[] = [];
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let drop: { apply: boolean } | null = null;
  let contentFails = false;
  let historyFails = false;

  const head = () => commits.at(-1) ?? null;
  const write = (author: string, files: Map<string, string>, message: string, sheetVersion: number | null): string => {
    const hash = createHash('sha1').update(`${commits.length}:${message}`).digest('hex');
    clock += 60_000;
    const parent = head();
    commits.push({
      id: hash,
      hash,
      message,
      author,
      email: `${author}@tessera.local`,
      timestamp: new Date(clock).toISOString(),
      sheetVersion,
      parents: parent ? [parent.hash] : [],
      files,
    });
    return hash;
  };
  const strip = ({ files: _files, ...commit }: StoredCommit): GitCommit => commit;

  const routes = (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const url = new URL(req.url ?? '/', 'http://test');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /git/history') {
      if (historyFails) return apiError(res, 500, 'internal_error', 'history failed');
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const identifier = url.searchParams.get('identifier');
      let list = [...commits].reverse();
      if (identifier) {
        list = list.filter((c, i, all) => c.files.get(identifier) !== all[i + 1]?.files.get(identifier));
      }
      const answer: GitHistoryResponse = { history: list.slice(0, limit).map(strip), count: Math.min(list.length, limit), empty_repo: commits.length === 0 };
      return json(res, 200, answer);
    }
    if (route === 'GET /git/tree') {
      const files = [...(head()?.files.keys() ?? [])].sort((a, b) => (a.endsWith('.py') === b.endsWith('.py') ? (a < b ? -1 : 1) : a.endsWith('.py') ? -1 : 1));
      const answer: GitTreeResponse = {
        files: files.map((path) => ({ path, type: 'file', size: head()!.files.get(path)!.length, modified: head()!.timestamp })),
        tree: treeOf(files),
        repository: { branch: 'main', head: head()?.hash ?? null, empty: commits.length === 0 },
        metadata: { total_files: files.length, matched_files: files.length, relaxed: false, truncated: false, cap: 300 },
      };
      return json(res, 200, answer);
    }
    if (route === 'GET /git/code-content') {
      if (contentFails) return apiError(res, 500, 'internal_error', 'content failed');
      const path = url.searchParams.get('identifier') ?? '';
      const text = head()?.files.get(path);
      if (text === undefined) return apiError(res, 404, 'file_not_found', `File "${path}" not found`);
      const answer: GitFileContent = {
        identifier: path,
        content: text,
        commit_hash: head()!.hash,
        metadata: { size: text.length, blob: 'b'.repeat(40), language: 'python', utf8: true },
      };
      return json(res, 200, answer);
    }
    if (route === 'GET /git/commit-graph') {
      return json(res, 200, { commits: [...commits].reverse().map(strip), count: commits.length, branch: 'main', head: head()?.hash ?? null });
    }
    if (route === 'POST /git/recommendations') {
      const { changes } = GitRecommendationsRequestSchema.parse(body);
      const answer: GitRecommendations = {
        suggested_commit_message: `Update ${changes.map((c) => c.path).join(', ')}`,
        affected_files: changes.map((c) => c.path),
        branch_recommendations: [{ name: 'update/files', description: 'A short-lived branch for this change' }],
        collaboration_impact: { breaking_changes: false, review_required: false, merge_complexity: 'low', team_notification: false },
        source: 'summary',
      };
      return json(res, 200, answer);
    }
    if (route === 'POST /git/commits') {
      commitBodies.push(body);
      const request = GitCommitRequestSchema.parse(body);
      const current = head();
      if ((request.base_commit || null) !== (current?.hash ?? null)) {
        return apiError(res, 409, 'conflict', 'The branch main has moved; refresh and retry', {
          base_commit: request.base_commit ?? null,
          head_commit: current?.hash ?? null,
          changed_files: request.changes.map((c) => c.path),
        });
      }
      const files = new Map(current?.files ?? []);
      for (const change of request.changes) {
        if (change.action === 'upsert') files.set(change.path, change.content);
        else files.delete(change.path);
      }
      const dropping = drop;
      drop = null;
      if (dropping) {
        if (dropping.apply) write('tester', files, request.message, request.sheetVersion ?? null);
        res.socket?.destroy();
        return;
      }
      const hash = write('tester', files, request.message, request.sheetVersion ?? null);
      const answer: GitCommitResponse = {
        commit_hash: hash,
        committed: true,
        file_results: request.changes.map((c) => ({ path: c.path, status: 'applied', message: current?.files.has(c.path) ? 'Updated' : 'Created' })),
      };
      return json(res, 200, answer);
    }
    if (route === 'POST /hybrid/forward' && api.hybridForward) {
      const answer = api.hybridForward(body);
      return json(res, answer.status, answer.body);
    }
    return apiError(res, 404, 'not_found', `${route} not found`);
  };

  const loopback = await startLoopbackServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    try {
      routes(req.incoming, res, req.body);
    } catch (err) {
      // A body the contracts refuse, as the ai-middleware answers it.
      apiError(res, 400, 'validation_failed', err instanceof Error ? err.message : String(err));
    }
  });

  const api: GitTestApi = {
    url: loopback.url,
    calls,
    commitBodies,
    commitAs(author, files, message = 'External change') {
      const next = new Map(head()?.files ?? []);
      for (const [p, text] of Object.entries(files)) next.set(p, text);
      return write(author, next, message, null);
    },
    head: () => head()?.hash ?? null,
    fileAtHead: (path) => head()?.files.get(path),
    dropNextCommit(apply) {
      drop = { apply };
    },
    failContent(on) {
      contentFails = on;
    },
    failHistory(on) {
      historyFails = on;
    },
    hybridForward: null,
    close: loopback.close,
  };
  return api;
}

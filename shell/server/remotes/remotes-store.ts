import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type RemotesManifest, RemotesManifestSchema } from '@tessera/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { buildDefaultRemotes } from './default-remotes.js';

export type RemotesReadResult =
  | { ok: true; manifest: RemotesManifest; generated: boolean }
  | { ok: false; message: string; details?: unknown };

// Only plain scheme://host[:port] may reach the CSP header: a ';' or quote in a
// hand-edited host would otherwise inject directives.
const SAFE_ORIGIN = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The distinct origins of every live, previous and canary manifest URL. */
export function remoteOrigins(manifest: RemotesManifest): string[] {
  const origins = new Set<string>();
  for (const entry of Object.values(manifest.remotes)) {
    if (!entry) continue;
    for (const release of [entry.live, entry.previous, entry.canary]) {
      if (!release) continue;
      const { origin } = new URL(release.manifest);
      if (SAFE_ORIGIN.test(origin)) origins.add(origin);
    }
  }
  return [...origins].sort();
}

function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === code;
}

/**
 * remotes.json on disk, the file ops edit to swap remote versions without a
 * rebuild or restart (DESIGN.md § Remote versions).
 */
export class RemotesStore {
  private originsKey: string | null = null;
  private cachedOrigins: string[] = [];

  constructor(
    private readonly file: string,
    private readonly repoRoot: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Reads and validates the file now, no cache; a missing file is replaced by the default one. */
  async read(): Promise<RemotesReadResult> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return this.createDefault();
      return { ok: false, message: `cannot read ${this.file}: ${(err as Error).message}` };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      return { ok: false, message: `${this.file} is not valid JSON: ${(err as Error).message}` };
    }
    const parsed = RemotesManifestSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
      return {
        ok: false,
        message: `${this.file} does not match the remotes manifest schema: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        details: issues,
      };
    }
    return { ok: true, manifest: parsed.data, generated: false };
  }

  /**
   * Origins for the CSP, recomputed only when the file changes (a stat per
   * request), so a newly added remote origin works without a restart.
   */
  async origins(): Promise<string[]> {
    let key: string | null = null;
    try {
      const s = await stat(this.file);
      key = `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      key = null;
    }
    if (key !== null && key === this.originsKey) return this.cachedOrigins;
    const result = await this.read();
    if (!result.ok) {
      // The page still loads (remotes show their fallback cards); /remotes.json reports the error.
      if (key !== this.originsKey) this.log.error({ file: this.file }, result.message);
      this.cachedOrigins = [];
    } else {
      this.cachedOrigins = remoteOrigins(result.manifest);
    }
    this.originsKey = key;
    return this.cachedOrigins;
  }

  private async createDefault(): Promise<RemotesReadResult> {
    let manifest: RemotesManifest;
    try {
      manifest = await buildDefaultRemotes(this.repoRoot);
    } catch (err) {
      return { ok: false, message: `${this.file} is missing and no default could be built: ${(err as Error).message}` };
    }
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
      try {
        // link() never overwrites: if ops (or a parallel request) created the file meanwhile, theirs wins.
        await link(tmp, this.file);
        this.log.info({ file: this.file }, 'wrote a default remotes.json');
      } catch (err) {
        if (!isErrno(err, 'EEXIST')) throw err;
        await unlink(tmp);
        return this.read();
      }
      await unlink(tmp);
    } catch (err) {
      // Serving the default still lets the product load; only persisting it failed.
      this.log.warn({ err, file: this.file }, 'cannot write the default remotes.json');
    }
    return { ok: true, manifest, generated: true };
  }
}

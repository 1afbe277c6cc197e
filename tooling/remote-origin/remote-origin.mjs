// A static origin for ONE remote: serves each release folder under /<version>/,
// as an independently deployed site would (DESIGN.md § Origins and ports).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyCors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

// Same rule as RemotesManifestSchema's version: no '/', so no path escapes.
const VERSION = /^[0-9A-Za-z.+-]{1,64}$/;
// webpack's [contenthash] names: such a file never changes.
const HASHED = /\.[0-9a-f]{8,}\.[A-Za-z0-9]+$/;
// Entry points a host reads to find everything else: always revalidated.
const ENTRY_FILES = new Set(['mf-manifest.json', 'mf-stats.json', 'remoteEntry.js', 'index.html']);

export function cacheControlFor(fileName) {
  if (ENTRY_FILES.has(fileName) || fileName.endsWith('.html')) return 'no-cache';
  return HASHED.test(fileName) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function isDir(dir) {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Resolves a version to its folder: the one `--dist` build under `--version`,
 * else `<releases>/<version>/`. Looked up per request, so a release copied in
 * later is served without a restart.
 */
export function createReleaseResolver({ dist, version, releases }) {
  return {
    folderOf(v) {
      if (!VERSION.test(v) || v === '.' || v === '..') return null;
      if (dist && v === version) return isDir(dist) ? dist : null;
      if (releases) {
        const dir = path.join(releases, v);
        if (isDir(dir)) return dir;
      }
      return null;
    },
    versions() {
      const found = new Set();
      if (dist && version && isDir(dist)) found.add(version);
      if (releases && isDir(releases)) {
        for (const entry of readdirSync(releases, { withFileTypes: true })) {
          if (entry.isDirectory() && VERSION.test(entry.name)) found.add(entry.name);
        }
      }
      return [...found].sort();
    },
  };
}

/**
 * The origins allowed to fetch this remote (the shell's): `--shell-origin` values
 * (repeatable or comma-separated), else SHELL_ORIGIN. Each must be a bare origin.
 * @returns {string[]}
 */
export function parseShellOrigins(values) {
  const list = (Array.isArray(values) ? values : [values]).flatMap((v) => String(v ?? '').split(',')).map((v) => v.trim()).filter(Boolean);
  for (const o of list) {
    let parsed;
    try {
      parsed = new URL(o);
    } catch {
      throw new Error(`--shell-origin "${o}" is not a URL`);
    }
    if (!/^https?:$/.test(parsed.protocol) || parsed.origin !== o.replace(/\/$/, '')) {
      throw new Error(`--shell-origin "${o}" must be a bare origin like http://localhost:3000`);
    }
  }
  return list.map((o) => o.replace(/\/$/, ''));
}

/** Builds the origin server (not listening). */
export async function buildRemoteOrigin({ name, dist, version, releases, shellOrigins = [], logLevel = 'info' }) {
  if (!name) throw new Error('--name is required');
  if (!dist && !releases) throw new Error('give --dist DIR --version V, or --releases DIR, or both');
  if (dist && !version) throw new Error('--dist needs --version (the folder is served under /<version>/)');
  if (version && !VERSION.test(version)) throw new Error(`--version "${version}" may contain letters, digits and . + - only`);
  const distDir = dist ? path.resolve(dist) : undefined;
  const releasesDir = releases ? path.resolve(releases) : undefined;
  const resolver = createReleaseResolver({ dist: distDir, version, releases: releasesDir });

  const allowed = parseShellOrigins(shellOrigins);

  const app = Fastify({ logger: { level: logLevel } });
  // Only the shell's page may fetch the manifest and chunks (DESIGN.md § Origins and ports).
  // Without a configured shell origin (a bare local run) any page may: say so.
  if (allowed.length === 0) app.log.warn('no --shell-origin / SHELL_ORIGIN: CORS allows any origin');
  await app.register(fastifyCors, {
    origin: allowed.length === 0 ? '*' : allowed,
    methods: ['GET', 'HEAD', 'OPTIONS'],
  });
  await app.register(fastifyStatic, {
    root: distDir ?? releasesDir,
    serve: false,
    cacheControl: false,
    // The build writes .br/.gz beside each asset (tooling precompress()); sent when accepted.
    preCompressed: true,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', cacheControlFor(path.basename(filePath)));
    },
  });

  const notFound = (reply, message) => reply.code(404).send({ error: { code: 'not_found', message } });

  app.get('/', async () => ({ name, versions: resolver.versions() }));
  app.get('/health', async () => ({ service: name, status: 'healthy', versions: resolver.versions() }));

  app.get('/:version/*', async (request, reply) => {
    const { version: v, '*': rest } = request.params;
    const folder = resolver.folderOf(v);
    if (!folder) return notFound(reply, `${name} has no release ${v}`);
    const file = rest === '' ? 'index.html' : rest;
    if (!existsSync(path.join(folder, file))) return notFound(reply, `${name}@${v} has no ${file}`);
    // @fastify/send refuses paths that leave `folder` (403).
    return reply.sendFile(file, folder);
  });
  app.get('/:version', async (request, reply) => {
    // Only a known release is redirected: the raw param could be '//evil.example'.
    const v = request.params.version;
    return resolver.folderOf(v) ? reply.redirect(`/${v}/`) : notFound(reply, `${name} has no release ${v}`);
  });

  return app;
}

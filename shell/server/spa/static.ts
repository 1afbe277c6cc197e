import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ERROR_CODES } from '@tessera/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// webpack names the shell's chunks [name].[contenthash:10].js: such a file never changes.
const HASHED = /\.[0-9a-f]{8,}\.[A-Za-z0-9]+$/;
const LONG_CACHE = 'public, max-age=31536000, immutable';
// Paths that belong to services: never answered with the SPA page.
const SERVICE_PATH = /^\/(?:api|ai)(?:\/|$)/;

export function cacheControlFor(fileName: string): string {
  return HASHED.test(fileName) ? LONG_CACHE : 'no-cache';
}

/**
 * Serves the built shell from distDir. index.html and every other unhashed
 * file must be revalidated so a new build is picked up; hashed chunks are
 * cached for a year. Unknown page paths get index.html for react-router.
 */
export async function registerShellStatic(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    cacheControl: false,
    // The build writes .br/.gz beside each asset (tooling precompress()); sent when accepted.
    preCompressed: true,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', cacheControlFor(path.basename(filePath)));
    },
  });

  async function sendIndex(request: FastifyRequest, reply: FastifyReply) {
    if (!existsSync(indexFile)) {
      request.log.error({ indexFile }, 'the shell is not built');
      return reply.code(503).send({
        error: { code: 'shell_not_built', message: 'The shell is not built: run npm run build' },
      });
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html', distDir, { cacheControl: false });
  }

  // react-router's /sheets/:sheetId?tab=... pages; upgrades on the same paths go to the api.
  app.get('/sheets', sendIndex);
  app.get('/sheets/*', sendIndex);

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0];
    const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
    // A page path (no file extension) outside the service prefixes is an SPA route;
    // a missing asset stays a 404 rather than HTML under a .js name.
    if ((request.method === 'GET' || request.method === 'HEAD') && !SERVICE_PATH.test(pathname) && !lastSegment.includes('.')) {
      return sendIndex(request, reply);
    }
    return reply.code(404).send({ error: { code: ERROR_CODES.notFound, message: `${request.method} ${pathname} not found` } });
  });
}

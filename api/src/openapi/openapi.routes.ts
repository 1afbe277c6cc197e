import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteOptions } from 'fastify';
import { z } from 'zod';
import { buildOpenApiDocument, type DocumentedRoute, type OpenApiDocument, OPENAPI_PATH } from './openapi-document.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's OpenAPI document (built from the registered routes at the first call). */
    openApiDocument(): OpenApiDocument;
  }
}

export const DOCS_PATH = '/api/docs';

/** Swagger UI, served from the installed swagger-ui-dist (no CDN: the page works offline). */
const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The reference page's own script: Swagger UI on this api's document. The online validator
 * badge is off (it would send the document to a third party); tokens are not kept in storage.
 */
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: new URL('v1/openapi.json', location.href).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tessera API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/tessera-docs.js"></script>
</body>
</html>
`;

interface Asset {
  type: string;
  load(): Buffer;
}
/** The only files /api/docs/:file serves (never a path from the request). */
const ASSETS: Record<string, Asset> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', load: () => readFileSync(path.join(swaggerDir, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    // Its source-map comment names a file we do not serve.
    load: () => Buffer.from(readFileSync(path.join(swaggerDir, 'swagger-ui-bundle.js'), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')),
  },
  'tessera-docs.js': { type: 'text/javascript; charset=utf-8', load: () => Buffer.from(INIT_JS) },
};
const AssetParamsSchema = z.object({ file: z.enum(Object.keys(ASSETS) as [string, ...string[]]) });

/** Read and gzipped once, at the first request for each (the bundle is 1.7 MB, 0.46 MB gzipped). */
const loaded = new Map<string, { raw: Buffer; gzip: Buffer }>();
function asset(name: string): { raw: Buffer; gzip: Buffer } {
  let entry = loaded.get(name);
  if (!entry) {
    const raw = ASSETS[name]!.load();
    entry = { raw, gzip: gzipSync(raw) };
    loaded.set(name, entry);
  }
  return entry;
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, name: string, type: string) {
  const { raw, gzip } = asset(name);
  reply.type(type).header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding');
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(gzip);
  return reply.send(raw);
}

/**
 * Collects every route as it is registered (call before the first route) and serves the
 * generated document at GET /api/v1/openapi.json and the reference page at GET /api/docs.
 */
export function installOpenApi(app: FastifyInstance, version: string): void {
  const routes: DocumentedRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods: HTTPMethods[] = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      routes.push({ method, url: route.url, public: route.config?.public === true, doc: route.config?.openapi });
    }
  });
  let document: OpenApiDocument | undefined;
  app.decorate('openApiDocument', () => (document ??= buildOpenApiDocument(routes, version)));

  app.get(
    OPENAPI_PATH,
    {
      config: {
        public: true,
        openapi: { summary: 'This OpenAPI 3.1 document', tag: 'Meta', responses: { 200: z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }) } },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.openApiDocument()),
  );
  app.get(DOCS_PATH, { config: { public: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PAGE),
  );
  app.get(`${DOCS_PATH}/:file`, { config: { public: true } }, async (request, reply) => {
    const parsed = AssetParamsSchema.safeParse(request.params);
    if (!parsed.success) return reply.callNotFound();
    return sendAsset(request, reply, parsed.data.file, ASSETS[parsed.data.file]!.type);
  });
}

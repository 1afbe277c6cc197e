import * as contracts from '@tessera/contracts';
import { ErrorBodySchema } from '@tessera/contracts';
import { z } from 'zod';
import type { ResponseDoc, RouteDoc } from './route-doc.js';

/** Only these routes are the public REST API (the sockets, /health and /metrics are not). */
export const API_PREFIX = '/api/v1';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

export interface DocumentedRoute {
  method: string;
  /** Fastify's pattern, e.g. /api/v1/sheets/:id */
  url: string;
  public: boolean;
  doc?: RouteDoc;
}

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, JsonSchema> };
}

const COMPONENTS = '#/components/schemas/';

/** `/sheets/:id/cells/:row(\\d+)` → `/sheets/{id}/cells/{row}`; the parameter names in order. */
export function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path, params };
}

/** The contracts' own names for their schemas (SheetSchema → Sheet), so the reference reads like the code. */
const contractNames = new Map<unknown, string>();
for (const [name, value] of Object.entries(contracts)) {
  if (name.endsWith('Schema') && value instanceof z.ZodType) contractNames.set(value, name.slice(0, -'Schema'.length));
}

/**
 * Turns zod schemas into `components.schemas` entries. Each schema is converted on its own
 * (z.toJSONSchema, input side: what travels on the wire); its local `#/$defs/...` references
 * (recursive trees) are re-rooted under its component so they resolve inside the document.
 */
class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly names = new Map<z.ZodType, string>();

  ref(schema: z.ZodType, fallbackName: string): JsonSchema {
    let name = this.names.get(schema);
    if (!name) {
      name = this.uniqueName(contractNames.get(schema) ?? fallbackName);
      this.names.set(schema, name);
      this.schemas[name] = this.convert(schema, name);
    }
    return { $ref: `${COMPONENTS}${name}` };
  }

  /** The JSON Schema itself (for parameters, which OpenAPI lists one by one). */
  inline(schema: z.ZodType): JsonSchema {
    return this.convert(schema, undefined);
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let i = 2; name in this.schemas; i++) name = `${base}${i}`;
    return name;
  }

  private convert(schema: z.ZodType, name: string | undefined): JsonSchema {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
    delete json.$schema;
    const root = name ? `${COMPONENTS}${name}` : '#';
    return rewriteRefs(json, root) as JsonSchema;
  }
}

function rewriteRefs(node: unknown, root: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, root));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) out[key] = root + value.slice(1);
    else out[key] = rewriteRefs(value, root);
  }
  return out;
}

function responseParts(res: ResponseDoc): { description: string; content: Record<string, z.ZodType> } {
  if (res instanceof z.ZodType) return { description: 'OK', content: { 'application/json': res } };
  return { description: res.description, content: res.content ?? {} };
}

const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/** `get /api/v1/sheets/{id}/cells` → `getSheetsIdCells`. */
function operationId(method: string, path: string): string {
  const rest = path.slice(API_PREFIX.length).replace(/[{}]/g, '');
  return method.toLowerCase() + (pascal(rest) || 'Root');
}

function objectProperties(json: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  return {
    properties: (json.properties ?? {}) as Record<string, JsonSchema>,
    required: (json.required ?? []) as string[],
  };
}

/** The OpenAPI 3.1 document of every /api/v1 route the app registered. */
export function buildOpenApiDocument(routes: DocumentedRoute[], version: string): OpenApiDocument {
  const components = new SchemaComponents();
  const errorRef = components.ref(ErrorBodySchema, 'ErrorBody');
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  const api = routes
    .filter((r) => r.url.startsWith(`${API_PREFIX}/`) && r.method !== 'HEAD')
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const route of api) {
    const { path, params } = openApiPath(route.url);
    const id = operationId(route.method, path);
    const doc = route.doc;
    const tag = doc?.tag ?? pascal(path.slice(API_PREFIX.length).split('/')[1] ?? 'api');
    tags.add(tag);

    const paramSchema = doc?.params ? objectProperties(components.inline(doc.params)) : undefined;
    const parameters: Record<string, unknown>[] = params.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: paramSchema?.properties[name] ?? { type: 'string' },
    }));
    if (doc?.query) {
      const query = objectProperties(components.inline(doc.query));
      for (const [name, schema] of Object.entries(query.properties)) {
        parameters.push({ name, in: 'query', required: query.required.includes(name) && !('default' in schema), schema });
      }
    }

    const responses: Record<string, unknown> = {};
    for (const [status, res] of Object.entries(doc?.responses ?? {})) {
      const { description, content } = responseParts(res);
      const types = Object.entries(content);
      responses[status] = {
        description,
        ...(types.length
          ? { content: Object.fromEntries(types.map(([type, schema]) => [type, { schema: components.ref(schema, `${pascal(id)}${status}`) }])) }
          : {}),
      };
    }
    responses.default = { description: 'Error: `{ "error": { "code", "message" } }`', content: { 'application/json': { schema: errorRef } } };

    const operation: Operation = {
      operationId: id,
      summary: doc?.summary ?? `${route.method} ${path}`,
      ...(doc?.description ? { description: doc.description } : {}),
      tags: [tag],
      ...(route.public ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(doc?.body
        ? {
            requestBody: {
              required: true,
              content: { [doc.bodyType ?? 'application/json']: { schema: components.ref(doc.body, `${pascal(id)}Body`) } },
            },
          }
        : {}),
      responses,
    };
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera API',
      version,
      description:
        'Every /api/v1 route. Authenticate with `Authorization: Bearer <token>`: a browser session\'s access token (EdDSA JWT, 15 minutes) or a personal API token `tsr_…` made in Account Settings.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A session access token (JWT) or a personal API token (`tsr_…`, scope read or read-write).',
        },
      },
      schemas: components.schemas,
    },
  };
}

import type { z } from 'zod';

/**
 * One response of a route: a JSON body's schema, or a description with the body's schema by
 * content type (none for an empty body, e.g. a 204).
 */
export type ResponseDoc = z.ZodType | { description: string; content?: Record<string, z.ZodType> };

/**
 * What a route says about itself, next to its registration (`withDoc`): the OpenAPI document
 * (openapi-document.ts) is generated from these schemas — the same contracts schemas the
 * handler passes to `validate` — so it has no hand-written copy. 4xx/5xx need not be listed:
 * every route answers errors as `ErrorBody`.
 */
export interface RouteDoc {
  summary: string;
  /** The reference page's section. */
  tag: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Default application/json (an upload says multipart/form-data). */
  bodyType?: string;
  /** Success responses by status. */
  responses: Record<number, ResponseDoc>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's schemas and texts for the OpenAPI document. */
    openapi?: RouteDoc;
  }
}

interface WithConfig {
  config?: Record<string, unknown>;
  [option: string]: unknown;
}

/**
 * Route options carrying `doc` in `config.openapi`, merged with other options
 * (e.g. `withDoc(doc, onSheet('view'))`, `withDoc(doc, { bodyLimit })`).
 */
export function withDoc<O extends WithConfig>(doc: RouteDoc, options?: O): O & { config: { openapi: RouteDoc } } {
  return { ...(options ?? ({} as O)), config: { ...(options?.config ?? {}), openapi: doc } };
}

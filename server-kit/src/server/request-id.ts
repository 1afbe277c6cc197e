import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

// What an upstream (the shell server, a load balancer) may hand us as an id: short
// and plain, so it cannot forge log lines or headers.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's genReqId (api, ai-middleware, shell server): the caller's x-request-id when it is a plain token, so one id
 * follows a request across the shell server and the services; else a fresh UUID.
 * pino logs it on every line of the request as `reqId`.
 */
export function genReqId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

/** Every reply names its request id, so a user's report can be matched to the logs. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}

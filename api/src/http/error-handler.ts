import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@tessera/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './http-error.js';

const MIB = 1024 * 1024;
/** Names the limit of the route that refused the body (sheet saves and imports have their own). */
export const bodyLimitText = (limit: number) =>
  `Request body is too large (limit ${limit >= MIB ? `${Math.round(limit / MIB)} MiB` : `${Math.round(limit / 1024)} KiB`})`;

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return ERROR_CODES.unauthorized;
  if (status === 403) return ERROR_CODES.forbidden;
  if (status === 404) return ERROR_CODES.notFound;
  if (status === 409) return ERROR_CODES.conflict;
  if (status === 413) return ERROR_CODES.payloadTooLarge;
  return status >= 500 ? ERROR_CODES.internal : ERROR_CODES.badRequest;
}

/** Every failure, ours or Fastify's, leaves as `{ error: { code, message } }`. */
export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    let status: number;
    let body: ErrorBody;
    if (err instanceof HttpError) {
      status = err.statusCode;
      body = { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      // Fastify's own client errors: bad JSON, body too large, unsupported media type...
      status = err.statusCode;
      const message =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? bodyLimitText(request.routeOptions.bodyLimit ?? bodyLimit) : err.message;
      body = { error: { code: codeForStatus(status), message } };
    } else {
      status = 500;
      request.log.error({ err }, 'request failed');
      body = { error: { code: ERROR_CODES.internal, message: 'Internal server error' } };
    }
    if (status < 500) request.log.info({ status, code: body.error.code }, body.error.message);
    return reply.code(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = {
      error: { code: ERROR_CODES.notFound, message: `Route ${request.method} ${request.url.split('?')[0]} not found` },
    };
    return reply.code(404).send(body);
  });
}

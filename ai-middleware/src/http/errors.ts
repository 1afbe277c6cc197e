import { ERROR_CODES, type ErrorBody } from '@tessera/contracts';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';

/** Code used when the api's key set cannot be fetched, so no token can be checked. */
export const AUTH_UNAVAILABLE_CODE = 'auth_unavailable';

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

export function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(code, message));
}

const CODE_BY_STATUS: Record<number, string> = {
  400: ERROR_CODES.badRequest,
  401: ERROR_CODES.unauthorized,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  409: ERROR_CODES.conflict,
  413: ERROR_CODES.payloadTooLarge,
};

/** Every error leaves as `{ error: { code, message } }`; 5xx details stay in the log. */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err.validation) {
      return sendError(reply, 400, ERROR_CODES.validation, err.message);
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return sendError(reply, status, ERROR_CODES.internal, 'Internal server error');
    }
    return sendError(reply, status, CODE_BY_STATUS[status] ?? ERROR_CODES.badRequest, err.message);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, ERROR_CODES.notFound, `Route ${request.method} ${request.url.split('?')[0]} not found`),
  );
}

import { ERROR_CODES, type ErrorCode } from '@tessera/contracts';

/** An error meant for the client: its status, code and message go out as the error body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  static badRequest(message: string, details?: unknown) {
    return new HttpError(400, ERROR_CODES.badRequest, message, details);
  }
  static unauthorized(message = 'Authentication required') {
    return new HttpError(401, ERROR_CODES.unauthorized, message);
  }
  static forbidden(message: string) {
    return new HttpError(403, ERROR_CODES.forbidden, message);
  }
  static conflict(message: string) {
    return new HttpError(409, ERROR_CODES.conflict, message);
  }
}

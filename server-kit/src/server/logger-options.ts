import type { FastifyServerOptions } from 'fastify';

// A query parameter that carries a credential: the live socket's `?token=` (a browser
// cannot set headers on a WebSocket). It must never reach a log line.
const SECRET_PARAM = /([?&](?:token|access_token)=)[^&#]*/gi;

/** The URL as logs may show it: credentials in the query replaced. */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PARAM, '$1[redacted]');
}

interface LoggedRequest {
  method: string;
  url?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** pino options of every service: the level, and request lines without secrets. */
export function loggerOptions(level: string): NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> {
  return {
    level,
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

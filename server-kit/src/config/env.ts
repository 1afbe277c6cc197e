/** A configuration a service refuses to start with; the message says what to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function parsePort(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be a port number between 0 and 65535, got "${raw}"`);
  }
  return port;
}

/** A whole number in [min, max]; `_` or `,` may group digits (10_000_000). Unset or blank: the fallback. */
export function parseWholeNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  const text = raw?.trim();
  if (!text) return fallback;
  const digits = text.replace(/[_,]/g, '');
  const n = Number(digits);
  if (!/^\d+$/.test(digits) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

/** An http(s) URL without trailing slashes. */
export function parseHttpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

export function parseBool(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (/^(1|true|yes)$/i.test(raw.trim())) return true;
  if (/^(0|false|no)$/i.test(raw.trim())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function parseLogLevel(raw: string | undefined): LogLevel {
  const level = raw?.trim() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${level}"`);
  }
  return level as LogLevel;
}

/** A postgres:// URL, or undefined when unset (the embedded database). */
export function parseDatabaseUrl(name: string, raw: string | undefined): string | undefined {
  const url = raw?.trim() || undefined;
  if (url && !/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError(`${name} must be a postgres:// or postgresql:// URL`);
  }
  return url;
}

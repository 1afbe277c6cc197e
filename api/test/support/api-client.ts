import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** Authenticated JSON calls against an in-process app. */
export function apiClient(app: FastifyInstance, accessToken: string) {
  const headers = { authorization: `Bearer ${accessToken}` };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload: unknown = {}) => call('POST', url, payload),
    put: (url: string, payload: unknown) => call('PUT', url, payload),
    patch: (url: string, payload: unknown) => call('PATCH', url, payload),
    delete: (url: string) => call('DELETE', url),
    /** multipart/form-data with one file and optional text fields. */
    upload(url: string, file: { filename: string; content: Buffer | string; type?: string }, fields: Record<string, string> = {}) {
      const boundary = `----tessera${Math.random().toString(16).slice(2)}`;
      const parts: Buffer[] = [];
      for (const [name, value] of Object.entries(fields)) {
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
      }
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      parts.push(typeof file.content === 'string' ? Buffer.from(file.content) : file.content);
      parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
      return app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat(parts),
      });
    },
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { redactUrl, loggerOptions } from './logger-options.js';

test('a token in the query never reaches the log', async () => {
  assert.equal(redactUrl('/sheets/s1?since=4&token=eyJhbGc.x.y'), '/sheets/s1?since=4&token=[redacted]');
  assert.equal(redactUrl('/a?access_token=abc#f'), '/a?access_token=[redacted]#f');
  assert.equal(redactUrl('/a?tokens=1&notoken=2'), '/a?tokens=1&notoken=2');

  const lines: string[] = [];
  const app = Fastify({ logger: { ...loggerOptions('info'), stream: { write: (line: string) => lines.push(line) } } as never });
  app.get('/sheets/:id', async () => ({ ok: true }));
  await app.inject({ method: 'GET', url: '/sheets/s1?token=secret-value' });
  await app.close();
  const logged = lines.join('');
  assert.match(logged, /token=\[redacted\]/);
  assert.doesNotMatch(logged, /secret-value/);
});

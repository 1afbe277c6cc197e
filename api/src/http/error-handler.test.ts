import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { bodyLimitText, installErrorHandling } from './error-handler.js';

describe('error handling', () => {
  it('names the refusing route’s own body limit, not the global one', async () => {
    const app = Fastify({ bodyLimit: 1024 });
    installErrorHandling(app, 1024);
    app.post('/small', async () => ({ ok: true }));
    app.post('/large', { bodyLimit: 2 * 1024 * 1024 }, async () => ({ ok: true }));
    const big = JSON.stringify({ x: 'y'.repeat(3 * 1024 * 1024) });
    const small = await app.inject({ method: 'POST', url: '/small', payload: JSON.stringify({ x: 'y'.repeat(2000) }), headers: { 'content-type': 'application/json' } });
    const large = await app.inject({ method: 'POST', url: '/large', payload: big, headers: { 'content-type': 'application/json' } });
    assert.equal(small.statusCode, 413);
    assert.equal(small.json().error.message, 'Request body is too large (limit 1 KiB)');
    assert.equal(large.statusCode, 413);
    assert.equal(large.json().error.message, 'Request body is too large (limit 2 MiB)');
    assert.equal(large.json().error.code, 'payload_too_large');
    await app.close();
  });

  it('writes sizes in KiB below a MiB', () => {
    assert.equal(bodyLimitText(512 * 1024), 'Request body is too large (limit 512 KiB)');
    assert.equal(bodyLimitText(64 * 1024 * 1024), 'Request body is too large (limit 64 MiB)');
  });
});

import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.port, 8083);
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.cookieSecure, undefined);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.redisUrl, undefined, 'no Redis: live state in this process');
    assert.equal(c.liveHeartbeatMs, 30_000);
  });

  it('takes a redis:// or rediss:// REDIS_URL and a heartbeat in ms', () => {
    assert.equal(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl, 'redis://127.0.0.1:6379');
    assert.equal(loadConfig({ REDIS_URL: 'rediss://:secret@cache.internal:6380/2' }).redisUrl, 'rediss://:secret@cache.internal:6380/2');
    assert.equal(loadConfig({ REDIS_URL: '  ' }).redisUrl, undefined);
    assert.equal(loadConfig({ LIVE_HEARTBEAT_MS: '500' }).liveHeartbeatMs, 500);
  });

  it('refuses a REDIS_URL that is not Redis and a heartbeat out of range', () => {
    assert.throws(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' }), /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    assert.throws(() => loadConfig({ REDIS_URL: '127.0.0.1:6379' }), /REDIS_URL/);
    assert.throws(() => loadConfig({ LIVE_HEARTBEAT_MS: '10' }), /LIVE_HEARTBEAT_MS/);
    assert.throws(() => loadConfig({ LIVE_HEARTBEAT_MS: 'often' }), /LIVE_HEARTBEAT_MS/);
  });

  it('reads every variable it knows', () => {
    const c = loadConfig({
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      HOST: '0.0.0.0',
      API_PORT: '9999',
      JWT_PRIVATE_KEY: 'a\\nb',
      COOKIE_SECURE: 'false',
      LOG_LEVEL: 'debug',
    });
    assert.deepEqual(
      [c.dataDir, c.databaseUrl, c.host, c.port, c.jwtPrivateKeyPem, c.cookieSecure, c.logLevel],
      ['/tmp/x', 'postgres://u@h/db', '0.0.0.0', 9999, 'a\nb', false, 'debug'],
    );
  });

  it('refuses a bad port or flag', () => {
    assert.throws(() => loadConfig({ API_PORT: 'eighty' }), /API_PORT/);
    assert.throws(() => loadConfig({ COOKIE_SECURE: 'maybe' }), /COOKIE_SECURE/);
  });

  it('takes LIVE_OUTBOUND_MAX_BYTES (default 8 MiB) and refuses one out of range', () => {
    assert.equal(loadConfig({}).liveOutboundMaxBytes, 8 * 1024 * 1024);
    assert.equal(loadConfig({ LIVE_OUTBOUND_MAX_BYTES: '1048576' }).liveOutboundMaxBytes, 1_048_576);
    assert.throws(() => loadConfig({ LIVE_OUTBOUND_MAX_BYTES: '1000' }), /LIVE_OUTBOUND_MAX_BYTES must be a whole number of bytes from 65536 to 1073741824, got "1000"/);
    assert.throws(() => loadConfig({ LIVE_OUTBOUND_MAX_BYTES: 'lots' }), /LIVE_OUTBOUND_MAX_BYTES/);
  });
});

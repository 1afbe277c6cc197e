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
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseBool, parseDatabaseUrl, parseHttpUrl, parseLogLevel, parsePort } from './env.js';

describe('env parsing', () => {
  it('takes a port, the default when unset, and refuses anything else', () => {
    assert.equal(parsePort('P', '8080', 1), 8080);
    assert.equal(parsePort('P', undefined, 1), 1);
    assert.equal(parsePort('P', ' ', 1), 1);
    for (const bad of ['x', '-1', '65536', '80.5']) assert.throws(() => parsePort('P', bad, 1), ConfigError);
  });

  it('takes http(s) URLs without trailing slashes', () => {
    assert.equal(parseHttpUrl('U', 'http://127.0.0.1:8083//'), 'http://127.0.0.1:8083');
    assert.throws(() => parseHttpUrl('U', 'ftp://x'), /must be an http\(s\) URL/);
    assert.throws(() => parseHttpUrl('U', 'not a url'), ConfigError);
  });

  it('reads booleans, log levels and database URLs', () => {
    assert.equal(parseBool('B', 'TRUE'), true);
    assert.equal(parseBool('B', '0'), false);
    assert.equal(parseBool('B', ''), undefined);
    assert.throws(() => parseBool('B', 'maybe'), ConfigError);
    assert.equal(parseLogLevel(undefined), 'info');
    assert.throws(() => parseLogLevel('loud'), /LOG_LEVEL must be one of/);
    assert.equal(parseDatabaseUrl('D', 'postgres://a@b/c'), 'postgres://a@b/c');
    assert.equal(parseDatabaseUrl('D', ''), undefined);
    assert.throws(() => parseDatabaseUrl('D', 'mysql://x'), ConfigError);
  });
});

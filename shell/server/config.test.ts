import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from './config.js';

test('SHELL_TRUST_PROXY: nobody by default (the shell faces the browsers); addresses and CIDRs; a typo stops the start', () => {
  assert.deepEqual(loadConfig({}).trustProxy, []);
  assert.deepEqual(loadConfig({ SHELL_TRUST_PROXY: '10.0.0.5, fd00::/8' }).trustProxy, ['10.0.0.5', 'fd00::/8']);
  // The api's TRUST_PROXY is not the shell's: npm start hands both services one environment.
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.5' }).trustProxy, []);
  assert.throws(() => loadConfig({ SHELL_TRUST_PROXY: 'lb.internal' }), /^ConfigError: SHELL_TRUST_PROXY must be a comma-separated list of IP addresses, CIDRs/);
});

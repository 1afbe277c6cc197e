import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config.js';

test('GIT_REPO_DIR defaults to DATA_DIR/repo and can be set on its own', () => {
  assert.equal(loadConfig({}).gitRepoDir, path.resolve('data', 'repo'));
  assert.equal(loadConfig({ DATA_DIR: '/srv/tessera' }).gitRepoDir, '/srv/tessera/repo');
  assert.equal(loadConfig({ DATA_DIR: '/srv/tessera', GIT_REPO_DIR: '/srv/code' }).gitRepoDir, '/srv/code');
  assert.equal(loadConfig({ GIT_REPO_DIR: '  ' }).gitRepoDir, path.resolve('data', 'repo'));
});

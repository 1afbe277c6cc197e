import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { installedVersion, sharedModules } from './index.js';

const mfeChat = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../mfe-chat');

test('UI libraries are page singletons; the contracts are shared by version, so a newer remote never gets an older copy', () => {
  const shared = sharedModules(mfeChat);
  for (const name of ['react', 'react-dom', 'react/jsx-runtime', '@chakra-ui/react', '@emotion/react', 'zustand']) {
    assert.equal(shared[name].singleton, true, name);
  }
  assert.deepEqual(shared['@tessera/contracts'], {
    singleton: false,
    requiredVersion: `^${installedVersion('@tessera/contracts', mfeChat)}`,
  });
});

test('the UI kit is shared by version where a remote uses it, and not offered by a package that does not', () => {
  const shell = path.resolve(path.dirname(mfeChat), 'shell');
  assert.deepEqual(sharedModules(mfeChat)['@tessera/ui-kit'], {
    singleton: false,
    requiredVersion: `^${installedVersion('@tessera/ui-kit', mfeChat)}`,
  });
  assert.equal(sharedModules(shell)['@tessera/ui-kit'], undefined);
});

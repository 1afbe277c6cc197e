import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, REMOTE_PORTS } from '@tessera/contracts';
import { remoteConfig } from '@tessera/webpack-remote';

const remote = REMOTES['mfe-git'];

// Only modules with a real screen are exposed (./CodeEditor arrives with its issue).
export default remoteConfig({
  name: remote.federationName,
  dir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: { './GitPanel': './src/git-panel/GitPanel.tsx' },
  allowedExposes: remote.exposes,
  port: REMOTE_PORTS['mfe-git'],
});

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, REMOTE_PORTS } from '@tessera/contracts';
import { remoteConfig } from '@tessera/webpack-remote';

const remote = REMOTES['mfe-sheets'];

// Navigator and Workspace: the two places the shell mounts this remote in.
export default remoteConfig({
  name: remote.federationName,
  dir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: { './Navigator': './src/navigator/Navigator.tsx', './Workspace': './src/workspace/Workspace.tsx' },
  allowedExposes: remote.exposes,
  port: REMOTE_PORTS['mfe-sheets'],
});

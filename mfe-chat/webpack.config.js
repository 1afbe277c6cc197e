import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, REMOTE_PORTS } from '@tessera/contracts';
import { remoteConfig } from '@tessera/webpack-remote';

const remote = REMOTES['mfe-chat'];

// Only modules with a real screen are exposed.
export default remoteConfig({
  name: remote.federationName,
  dir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: {
    './ChatPanel': './src/chat-panel/ChatPanel.tsx',
    './HeaderStatus': './src/editing-mode/HeaderStatus.tsx',
    './RecoveryBanner': './src/solver/RecoveryBanner.tsx',
  },
  allowedExposes: remote.exposes,
  port: REMOTE_PORTS['mfe-chat'],
});

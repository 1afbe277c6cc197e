import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, REMOTE_PORTS } from '@tessera/contracts';
import { remoteConfig } from '@tessera/webpack-remote';

const remote = REMOTES['mfe-members'];

export default remoteConfig({
  name: remote.federationName,
  dir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: {
    './MembersPanel': './src/members-panel/MembersPanel.tsx',
    './OnlineIndicator': './src/online-indicator/OnlineIndicator.tsx',
    './AccountSettings': './src/account-settings/AccountSettings.tsx',
  },
  allowedExposes: remote.exposes,
  port: REMOTE_PORTS['mfe-members'],
});

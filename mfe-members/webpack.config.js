import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, REMOTE_PORTS } from '@tessera/contracts';
import { remoteConfig } from '@tessera/webpack-remote';

const remote = REMOTES['mfe-members'];

// Only modules with a real screen are exposed (./OnlineIndicator and ./AccountSettings arrive with their issues).
export default remoteConfig({
  name: remote.federationName,
  dir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: { './MembersPanel': './src/members-panel/MembersPanel.tsx' },
  allowedExposes: remote.exposes,
  port: REMOTE_PORTS['mfe-members'],
});

import { RemotePlace } from '../../remotes/RemotePlace.js';

/**
 * The header parts remotes expose (DESIGN.md): the chat's AI Editing Mode and
 * solver badges, the members' online indicator. They are decorations: a part
 * that is not there (yet) or fails renders nothing.
 */
export function HeaderParts() {
  return (
    <>
      <RemotePlace remote="mfe-chat" expose="./HeaderStatus" quiet display="flex" alignItems="center" />
      <RemotePlace remote="mfe-members" expose="./OnlineIndicator" quiet display="flex" alignItems="center" />
    </>
  );
}

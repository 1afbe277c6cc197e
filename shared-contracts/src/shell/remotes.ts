import { z } from 'zod';

/**
 * The four remotes, their Module Federation names and what each exposes
 * (DESIGN.md § How the remotes fit together).
 */
export const REMOTES = {
  'mfe-sheets': { federationName: 'mfe_sheets', exposes: ['./Navigator', './Workspace'] },
  'mfe-chat': { federationName: 'mfe_chat', exposes: ['./ChatPanel', './HeaderStatus', './RecoveryBanner'] },
  'mfe-git': { federationName: 'mfe_git', exposes: ['./GitPanel', './CodeEditor'] },
  'mfe-members': { federationName: 'mfe_members', exposes: ['./MembersPanel', './OnlineIndicator', './AccountSettings'] },
} as const;

export type RemoteName = keyof typeof REMOTES;
export type ExposedModule<R extends RemoteName> = (typeof REMOTES)[R]['exposes'][number];
export const REMOTE_NAMES = Object.keys(REMOTES) as RemoteName[];

const RemoteReleaseSchema = z.strictObject({
  version: z.string().regex(/^[0-9A-Za-z.+-]{1,64}$/, 'version may contain letters, digits and . + - only'),
  manifest: z.url({ protocol: /^https?$/ }),
});
export type RemoteRelease = z.infer<typeof RemoteReleaseSchema>;

/**
 * `remotes.json`, edited by ops: each remote's live release and the previous
 * one to fall back to when the live one fails to load.
 */
export const RemotesManifestSchema = z.strictObject({
  remotes: z.partialRecord(
    z.enum(Object.keys(REMOTES) as [RemoteName, ...RemoteName[]]),
    z.strictObject({ live: RemoteReleaseSchema, previous: RemoteReleaseSchema.optional() }),
  ),
});
export type RemotesManifest = z.infer<typeof RemotesManifestSchema>;

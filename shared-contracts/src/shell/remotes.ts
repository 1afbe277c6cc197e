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

const RemoteVersionSchema = z.string().regex(/^[0-9A-Za-z.+-]{1,64}$/, 'version may contain letters, digits and . + - only');

const RemoteReleaseSchema = z.strictObject({
  version: RemoteVersionSchema,
  manifest: z.url({ protocol: /^https?$/ }),
});
export type RemoteRelease = z.infer<typeof RemoteReleaseSchema>;

/**
 * A candidate release shown to some users before it goes live: to `percent` of
 * them, or, with `userIds`, to that percentage of the listed users only.
 * Who is in is decided by the shell in the browser once the user is known
 * (`inCanary`), the same way on every page load.
 */
export const RemoteCanarySchema = RemoteReleaseSchema.extend({
  percent: z.number().int().min(0).max(100),
  userIds: z.array(z.string().min(1).max(128)).min(1).max(1000).optional(),
});
export type RemoteCanary = z.infer<typeof RemoteCanarySchema>;

const RemoteEntrySchema = z
  .strictObject({ live: RemoteReleaseSchema, previous: RemoteReleaseSchema.optional(), canary: RemoteCanarySchema.optional() })
  .refine((e) => !e.canary || e.canary.version !== e.live.version, {
    message: 'the canary must be another version than the live one',
    path: ['canary', 'version'],
  });
export type RemoteEntry = z.infer<typeof RemoteEntrySchema>;

/**
 * `remotes.json`, edited by ops: each remote's live release, the previous one
 * to fall back to when the live one fails to load, and an optional canary.
 */
export const RemotesManifestSchema = z.strictObject({
  remotes: z.partialRecord(z.enum(Object.keys(REMOTES) as [RemoteName, ...RemoteName[]]), RemoteEntrySchema),
});
export type RemotesManifest = z.infer<typeof RemotesManifestSchema>;

/**
 * What a remote's build declares in its `mf-manifest.json` (`metaData.tessera`):
 * which remote and version it is, the contracts major it was built against, and the
 * Chakra UI exports it uses (checked against the shell's CHAKRA_EXPORTS; absent in
 * releases built before contracts 2.1).
 */
export const RemoteBuildInfoSchema = z.object({
  remote: z.enum(Object.keys(REMOTES) as [RemoteName, ...RemoteName[]]),
  version: RemoteVersionSchema,
  contractsMajor: z.number().int().nonnegative(),
  chakraExports: z.array(z.string().min(1).max(100)).max(2000).optional(),
});
export type RemoteBuildInfo = z.infer<typeof RemoteBuildInfoSchema>;

/** The part of a Module Federation `mf-manifest.json` Tessera reads; the runtime reads the rest. */
export const RemoteManifestFileSchema = z.object({
  metaData: z.object({ tessera: RemoteBuildInfoSchema }),
});

/** FNV-1a, 32 bits: small, stable across browsers and Node, good enough to spread users. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A user's bucket (0–99) for one canary. It depends on the remote and the
 * candidate version too, so each canary reaches another set of users, and a
 * user stays in as the percentage grows.
 */
export function canaryBucket(remote: RemoteName, version: string, userId: string): number {
  return fnv1a(`${remote}\n${version}\n${userId}`) % 100;
}

/** Whether this user runs the canary of this remote. */
export function inCanary(remote: RemoteName, canary: RemoteCanary, userId: string): boolean {
  if (canary.userIds && !canary.userIds.includes(userId)) return false;
  return canaryBucket(remote, canary.version, userId) < canary.percent;
}

/**
 * A page served over https may not run scripts from an http origin (mixed content): browsers
 * block them, or worse, a network attacker rewrites them. The reason a remote's release at `url`
 * (its mf-manifest.json, or the public path its scripts load from) is refused for a shell served
 * under `shellProtocol` ('https:' or 'http:'), else null. Used by the shell's loader and
 * `pnpm remotes`.
 */
export function insecureRemoteRefusal(url: string, shellProtocol: string): string | null {
  if (shellProtocol !== 'https:') return null;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return null;
  }
  if (protocol !== 'http:') return null;
  return `${url} is served over http://, but the shell is served over https://: a remote's scripts must be served over https too`;
}

// The remotes commands as functions of the manifest: each returns the new
// manifest (or throws a message for ops) and never writes; bin/remotes.mjs does.
import { insecureRemoteRefusal, REMOTE_NAMES, REMOTE_PORTS } from '@tessera/contracts';
import { manifestUrl } from './release-check.mjs';

const USAGE_REMOTE = `one of ${REMOTE_NAMES.join(', ')}`;

export function assertRemote(remote) {
  if (!REMOTE_NAMES.includes(remote)) throw new Error(`unknown remote "${remote}": ${USAGE_REMOTE}`);
  return remote;
}

/**
 * Where a remote's releases are served: --origin, else the folder above the live
 * release's `<version>/mf-manifest.json`, else the remote's local origin.
 */
export function releaseBase(entry, remote, origin) {
  if (origin) return origin.endsWith('/') ? origin : `${origin}/`;
  const live = entry?.live;
  if (live) {
    const suffix = `/${encodeURIComponent(live.version)}/mf-manifest.json`;
    const url = new URL(live.manifest);
    url.search = '';
    url.hash = '';
    return url.href.endsWith(suffix) ? url.href.slice(0, -suffix.length + 1) : `${url.origin}/`;
  }
  return `http://localhost:${REMOTE_PORTS[remote]}/`;
}

/** The shell's origin as given (--shell-origin / SHELL_ORIGIN): an http(s) URL, or undefined. */
export function parseShellOrigin(text) {
  if (text === undefined || text.trim() === '') return undefined;
  let url;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`the shell origin must be an http:// or https:// URL, not "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the shell origin must be an http:// or https:// URL, not "${text}"`);
  return url.origin;
}

/** A shell served over https would refuse a release served over http: refused here first, before the file changes. */
export function assertSecureForShell(url, shellOrigin) {
  if (!shellOrigin) return;
  const reason = insecureRemoteRefusal(url, new URL(shellOrigin).protocol);
  if (reason) throw new Error(`refused: ${reason} (the shell: ${shellOrigin}); pass --origin https://…`);
}

const urlOf = (base, version) => new URL(`${encodeURIComponent(version)}/mf-manifest.json`, base).href;

const withEntry = (manifest, remote, entry) => ({ ...manifest, remotes: { ...manifest.remotes, [remote]: entry } });

const dropUndefined = (entry) => Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));

/** `set <remote> <version>`: the version goes live, the live one becomes the previous. A canary of that version is promoted. */
export async function setLive(manifest, remote, version, { origin, check, shellOrigin }) {
  assertRemote(remote);
  const entry = manifest.remotes[remote];
  if (entry?.live.version === version && !origin) return { manifest, message: `${remote} ${version} is already live` };
  const url = urlOf(releaseBase(entry, remote, origin), version);
  assertSecureForShell(url, shellOrigin);
  await check({ remote, version, url });
  const next = dropUndefined({
    live: { version, manifest: url },
    previous: entry && entry.live.version !== version ? entry.live : entry?.previous,
    canary: entry?.canary && entry.canary.version !== version ? entry.canary : undefined,
  });
  return { manifest: withEntry(manifest, remote, next), message: `${remote}: live ${version}${next.previous ? `, previous ${next.previous.version}` : ''}` };
}

/** `rollback <remote>`: the previous release goes live again; the rolled-back one is dropped. */
export async function rollback(manifest, remote, { check, shellOrigin }) {
  assertRemote(remote);
  const entry = manifest.remotes[remote];
  if (!entry) throw new Error(`${remote} is not listed in remotes.json`);
  if (!entry.previous) throw new Error(`${remote} has no previous release to roll back to (live: ${entry.live.version})`);
  const { previous } = entry;
  assertSecureForShell(previous.manifest, shellOrigin);
  await check({ remote, version: previous.version, url: previous.manifest });
  const next = dropUndefined({
    live: previous,
    canary: entry.canary && entry.canary.version !== previous.version ? entry.canary : undefined,
  });
  return { manifest: withEntry(manifest, remote, next), message: `${remote}: rolled back from ${entry.live.version} to ${previous.version}` };
}

export function parsePercent(text) {
  if (!/^\d{1,3}$/.test(String(text)) || Number(text) > 100) throw new Error(`percent must be a whole number from 0 to 100, not "${text}"`);
  return Number(text);
}

export function parseUserIds(text) {
  if (text === undefined) return undefined;
  const ids = String(text).split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new Error('--users needs at least one user id');
  return [...new Set(ids)];
}

/** `canary <remote> <version> <percent> [--users ids]`: the version for that share of users (of the listed ones). */
export async function setCanary(manifest, remote, version, percentText, { users, origin, check, shellOrigin }) {
  assertRemote(remote);
  const entry = manifest.remotes[remote];
  if (!entry) throw new Error(`${remote} is not listed in remotes.json: set a live version first`);
  const percent = parsePercent(percentText);
  const userIds = parseUserIds(users);
  if (entry.live.version === version) throw new Error(`${remote} ${version} is already live; a canary must be another version`);
  const url = urlOf(releaseBase(entry, remote, origin), version);
  assertSecureForShell(url, shellOrigin);
  await check({ remote, version, url });
  const canary = dropUndefined({ version, manifest: url, percent, userIds });
  const who = userIds ? `${percent}% of users ${userIds.join(', ')}` : `${percent}% of users`;
  return { manifest: withEntry(manifest, remote, { ...entry, canary }), message: `${remote}: canary ${version} for ${who}` };
}

/** `canary <remote> off`: ends the canary; everyone gets the live release. */
export function clearCanary(manifest, remote) {
  assertRemote(remote);
  const entry = manifest.remotes[remote];
  if (!entry?.canary) return { manifest, message: `${remote} has no canary` };
  const { canary, ...rest } = entry;
  return { manifest: withEntry(manifest, remote, rest), message: `${remote}: canary ${canary.version} ended` };
}

/** The lines of `list`: each remote's live, previous and canary, and what its origin has released. */
export function describe(manifest, available = {}) {
  const lines = [];
  for (const remote of REMOTE_NAMES) {
    const entry = manifest.remotes[remote];
    lines.push(remote);
    if (!entry) {
      lines.push('  (not listed: the shell shows its fallback card)');
      continue;
    }
    lines.push(`  live      ${entry.live.version.padEnd(10)} ${entry.live.manifest}`);
    if (entry.previous) lines.push(`  previous  ${entry.previous.version.padEnd(10)} ${entry.previous.manifest}`);
    if (entry.canary) {
      const who = entry.canary.userIds ? `${entry.canary.percent}% of users ${entry.canary.userIds.join(', ')}` : `${entry.canary.percent}% of users`;
      lines.push(`  canary    ${entry.canary.version.padEnd(10)} ${who}  ${entry.canary.manifest}`);
    }
    const a = available[remote];
    if (a) lines.push(a.ok ? `  released  ${a.versions.join(', ') || '(none)'}` : `  released  ? (${a.error})`);
  }
  return lines;
}

export { manifestUrl };

import type { RetentionPolicy } from '@tessera/contracts';

export interface VersionTime {
  version: number;
  createdAt: Date;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Bucket keys (UTC): versions in one bucket compete, the newest one is kept. */
const BUCKETS: [keyof Omit<RetentionPolicy, 'recent'>, (d: Date) => number][] = [
  ['hourly', (d) => Math.floor(d.getTime() / HOUR)],
  ['daily', (d) => Math.floor(d.getTime() / DAY)],
  // Weeks from Monday: 1970-01-01 was a Thursday.
  ['weekly', (d) => Math.floor((d.getTime() / DAY + 3) / 7)],
  ['monthly', (d) => d.getUTCFullYear() * 12 + d.getUTCMonth()],
];

/**
 * The versions a retention policy keeps (Grist's scheme): the `recent` newest, then for each
 * period the newest version of each of the last N distinct periods, plus `always` (named
 * versions and the others that must survive). Versions are given in any order.
 */
export function versionsToKeep(versions: VersionTime[], policy: RetentionPolicy, always: Set<number>): Set<number> {
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);
  const keep = new Set<number>(always);
  for (const v of newestFirst.slice(0, policy.recent)) keep.add(v.version);
  for (const [name, bucketOf] of BUCKETS) {
    const limit = policy[name];
    const seen = new Set<number>();
    for (const v of newestFirst) {
      if (seen.size >= limit) break;
      const bucket = bucketOf(v.createdAt);
      if (seen.has(bucket)) continue;
      seen.add(bucket);
      keep.add(v.version);
    }
  }
  return keep;
}

/**
 * Spec 01 §9 (and spec 02 §2's lists): minutes below 60, then hours below 24, then days.
 * A time in the future (clock skew) reads as 0 minutes.
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

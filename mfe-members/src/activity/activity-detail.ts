import type { User } from '@tessera/contracts';

/** One line of an entry's details: a label and its value in words. */
export interface DetailLine {
  label: string;
  value: string;
}

const LABELS: Record<string, string> = {
  before: 'Before',
  after: 'After',
  from: 'From',
  to: 'To',
  role: 'Role',
  sheets: 'Sheets',
  groups: 'Groups',
  version_id: 'Version',
  policy: 'Policy',
  result: 'Result',
};

const labelOf = (key: string) => LABELS[key] ?? key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

const isGrant = (v: unknown): v is { user_id: string | null; level: string } =>
  typeof v === 'object' && v !== null && 'level' in v && 'user_id' in v;

/** A value in words: a sharing list names members ("Everyone in the workspace" for the default). */
function valueOf(value: unknown, names: Map<string, string>): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    if (value.every(isGrant)) {
      return value.map((g) => `${g.user_id === null ? 'Everyone in the workspace' : (names.get(g.user_id) ?? g.user_id)}: ${g.level}`).join(', ');
    }
    return value.map((v) => valueOf(v, names)).join(', ');
  }
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${valueOf(v, names)}`)
    .join(', ');
}

/** An entry's `detail` as labelled lines (member ids named by the members list). */
export function detailLines(detail: Record<string, unknown>, members: User[]): DetailLine[] {
  const names = new Map(members.map((m) => [m.id, m.username]));
  return Object.entries(detail).map(([key, value]) => ({ label: labelOf(key), value: valueOf(value, names) }));
}

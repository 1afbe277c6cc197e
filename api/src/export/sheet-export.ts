import type { ExportFormat } from '@tessera/contracts';

/** `{name}_{YYYY-MM-DD_HH-mm}.{ext}`: the §9 minute-resolution service file name (UTC). */
export function exportFileName(name: string, format: ExportFormat, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 16).replace('T', '_').replace(':', '-');
  return `${name}_${stamp}.${format}`;
}

/** attachment with an ASCII fallback and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

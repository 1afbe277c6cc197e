import type { ExportFormat } from '@tessera/contracts';

/** The toolbar's download name (spec 01 §9): `{sheet name}_{YYYY-MM-DD}.{ext}`, the local date. */
export function exportFileName(sheetName: string, format: ExportFormat, now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `${sheetName}_${date}.${format}`;
}

/** Hands the bytes to the browser as a download with that name. */
export function downloadFile(file: Blob, name: string, doc: Document = document): void {
  const url = URL.createObjectURL(file);
  const link = doc.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  doc.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

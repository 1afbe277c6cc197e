import { ImportResultSchema, type ImportResult, type ShellContext } from '@tessera/contracts';
import { importNameOf } from './import-name.js';

type Api = ShellContext['api'];

/**
 * A random version-4 UUID: the import's progress id. crypto.randomUUID exists only in secure
 * contexts (an http page on a LAN address is not one); getRandomValues exists everywhere.
 */
export function importProgressId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * POST /api/v1/import?progress=<progressId> (multipart: file, name). `onUploaded` reports the
 * share of the file sent, from 0 to 1; after 1 the server parses and stores it until it replies,
 * telling the rows stored so far on the workspace socket (the bus's 'import-progress' with
 * this progressId).
 */
export async function importFile(api: Api, file: File, progressId: string, onUploaded: (share: number) => void): Promise<ImportResult> {
  const form = new FormData();
  const name = importNameOf(file.name);
  if (name !== undefined) form.append('name', name);
  form.append('file', file, file.name);
  const { data } = await api.post<unknown>('/api/v1/import', form, {
    params: { progress: progressId },
    onUploadProgress: ({ loaded, total }) => onUploaded(total ? Math.min(1, loaded / total) : 0),
  });
  return ImportResultSchema.parse(data);
}

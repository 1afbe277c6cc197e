import { ImportResultSchema, type ImportResult, type ShellContext } from '@tessera/contracts';
import { importNameOf } from './import-name.js';

type Api = ShellContext['api'];

/**
 * POST /api/v1/import (multipart: file, name). `onUploaded` reports the share of the file
 * sent, from 0 to 1; after 1 the server parses and stores it until it replies.
 */
export async function importFile(api: Api, file: File, onUploaded: (share: number) => void): Promise<ImportResult> {
  const form = new FormData();
  const name = importNameOf(file.name);
  if (name !== undefined) form.append('name', name);
  form.append('file', file, file.name);
  const { data } = await api.post<unknown>('/api/v1/import', form, {
    onUploadProgress: ({ loaded, total }) => onUploaded(total ? Math.min(1, loaded / total) : 0),
  });
  return ImportResultSchema.parse(data);
}

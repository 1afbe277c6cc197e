// remotes.json on disk: read and validated with the contracts' schema, written
// atomically (a temp file in the same folder, then rename), so the shell, which
// reads it at every page load, only ever sees the old file or the new one.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { RemotesManifestSchema } from '@tessera/contracts';

/**
 * The file the shell reads: --file, else REMOTES_MANIFEST, else DATA_DIR/remotes.json
 * (DATA_DIR defaults to ./data), the shell server's own rule (README § Configuration).
 */
export function manifestPath(file, env = process.env) {
  if (file) return path.resolve(file);
  if (env.REMOTES_MANIFEST?.trim()) return path.resolve(env.REMOTES_MANIFEST.trim());
  return path.resolve(env.DATA_DIR?.trim() || 'data', 'remotes.json');
}

export async function readManifest(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') {
      throw new Error(`${file} does not exist: start the shell once (it writes the default) or pass --file`);
    }
    throw err;
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${err.message}`);
  }
  const parsed = RemotesManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`${file} does not match the remotes manifest schema: ${issues}`);
  }
  return parsed.data;
}

/** The default way bytes reach the temp file: write, then flush to disk before the rename. */
async function writeAndSync(handle, text) {
  await handle.writeFile(text, 'utf8');
  await handle.sync();
}

/**
 * Validates and writes the manifest atomically. `writeContent` is where the bytes
 * go into the temp file (tests make it fail half-way, as a crash would).
 */
export async function writeManifestAtomic(file, manifest, { writeContent = writeAndSync } = {}) {
  const valid = RemotesManifestSchema.parse(manifest);
  const text = `${JSON.stringify(valid, null, 2)}\n`;
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', 0o644);
  try {
    try {
      await writeContent(handle, text);
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

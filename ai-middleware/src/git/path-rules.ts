import { GIT_ERROR_CODES, GIT_MAX_FILE_BYTES } from '@tessera/contracts';
import { GitRequestError } from './git-errors.js';

const MAX_PATH_LENGTH = 1024;

function refuse(path: string, why: string): GitRequestError {
  return new GitRequestError(400, GIT_ERROR_CODES.invalidPath, `Path "${path.replace(/\0/g, '\\0')}" is refused: ${why}`);
}

/**
 * A repository path must be relative, '/'-separated, with no '..', '.', empty
 * or `.git` segment and no NUL or control character: anything else could
 * escape the tree or write into git's own folder when the repository is
 * checked out by the command line.
 */
export function validateRepoPath(path: string): string {
  if (path.length === 0) throw refuse(path, 'it is empty');
  if (path.includes('\0')) throw refuse(path, 'it contains a NUL character');
  // eslint-disable-next-line no-control-regex
  if (/[\x01-\x1f\x7f]/.test(path)) throw refuse(path, 'it contains a control character');
  if (path.length > MAX_PATH_LENGTH) throw refuse(path, `it is longer than ${MAX_PATH_LENGTH} characters`);
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw refuse(path, 'absolute paths are not allowed');
  if (path.includes('\\')) throw refuse(path, "use '/' as the separator, not '\\'");
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '..') throw refuse(path, "'..' is not allowed");
    if (segment === '' ) throw refuse(path, 'it has an empty segment or a trailing slash');
    if (segment === '.') throw refuse(path, "'.' segments are not allowed");
    // Case-insensitive: on such filesystems `.GIT/` is git's folder too.
    if (segment.toLowerCase() === '.git') throw refuse(path, "paths inside '.git/' are not allowed");
  }
  return path;
}

/** Files are text, at most GIT_MAX_FILE_BYTES once encoded as UTF-8. */
export function encodeFileContent(path: string, content: string): Uint8Array {
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.byteLength > GIT_MAX_FILE_BYTES) {
    throw new GitRequestError(
      400,
      GIT_ERROR_CODES.fileTooLarge,
      `File "${path}" is ${bytes.byteLength} bytes; the limit is ${GIT_MAX_FILE_BYTES} bytes (1 MB)`,
    );
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

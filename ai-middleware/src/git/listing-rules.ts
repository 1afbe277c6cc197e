import { FILE_TREE_CAP, GIT_LISTED_EXTENSIONS, type GitTreeNode } from '@tessera/contracts';

// Git's own folders and index at the top of the listing, and any `.git` folder (spec 02 §5).
const EXCLUDED_TOP_FOLDERS = new Set(['objects', 'logs', 'refs', 'hooks', 'info']);
const EXTENSIONS = new Set<string>(GIT_LISTED_EXTENSIONS);

export function isExcluded(filePath: string): boolean {
  const segments = filePath.split('/');
  if (segments.length > 1 && EXCLUDED_TOP_FOLDERS.has(segments[0])) return true;
  if (filePath === 'index') return true;
  return segments.slice(0, -1).some((s) => s === '.git');
}

export function extensionOf(filePath: string): string {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** .py first, then by path (code-unit order, the same on every machine). */
export function compareListed(a: string, b: string): number {
  const pa = extensionOf(a) === 'py' ? 0 : 1;
  const pb = extensionOf(b) === 'py' ? 0 : 1;
  if (pa !== pb) return pa - pb;
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface Listing<T> {
  listed: T[];
  matched: number;
  relaxed: boolean;
  truncated: boolean;
}

/**
 * Spec 02 §5: keep paths with a listed extension, outside the exclusions; if
 * none match, use the relaxed list (every non-excluded file); cap at 300,
 * .py first, then by path.
 */
export function applyListingRules<T extends { path: string }>(files: T[], cap: number = FILE_TREE_CAP): Listing<T> {
  const kept = files.filter((f) => !isExcluded(f.path));
  const strict = kept.filter((f) => EXTENSIONS.has(extensionOf(f.path)));
  const relaxed = strict.length === 0 && kept.length > 0;
  const matched = relaxed ? kept : strict;
  // The order of compareListed: .py first (each path's extension worked out once), then by path.
  const py: T[] = [];
  const rest: T[] = [];
  for (const f of matched) (extensionOf(f.path) === 'py' ? py : rest).push(f);
  const sorted = sortedByPath(py).concat(sortedByPath(rest));
  return { listed: sorted.slice(0, cap), matched: matched.length, relaxed, truncated: sorted.length > cap };
}

/**
 * Sorted by path (code-unit order, stable). Files listed from a tree come in git's order, which
 * is nearly always this one already: one pass checks it, and only a list out of order is sorted
 * (a cold sort of 5,000 paths was a tenth of the first /git/tree's listing).
 */
function sortedByPath<T extends { path: string }>(files: T[]): T[] {
  for (let i = 1; i < files.length; i += 1) {
    if (files[i - 1].path > files[i].path) return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  return files;
}

/** The listed files as nested folders, folders before files, each level by name. */
export function buildTree(paths: string[]): GitTreeNode[] {
  const root: GitTreeNode = { name: '', path: '', type: 'directory', children: [] };
  for (const filePath of paths) {
    const segments = filePath.split('/');
    let node = root;
    segments.forEach((name, i) => {
      const nodePath = segments.slice(0, i + 1).join('/');
      const isFile = i === segments.length - 1;
      let child = node.children!.find((c) => c.name === name && (c.type === 'file') === isFile);
      if (!child) {
        child = isFile ? { name, path: nodePath, type: 'file' } : { name, path: nodePath, type: 'directory', children: [] };
        node.children!.push(child);
      }
      node = child;
    });
  }
  const sort = (nodes: GitTreeNode[]): GitTreeNode[] => {
    nodes.sort((a, b) => (a.type !== b.type ? (a.type === 'directory' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const n of nodes) if (n.children) sort(n.children);
    return nodes;
  };
  return sort(root.children!);
}

const LANGUAGES: Record<string, string> = {
  py: 'python',
  js: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  go: 'go',
  md: 'markdown',
  json: 'json',
  txt: 'plaintext',
};

/** Editor language id of a path (Monaco's names), plaintext when unknown. */
export function languageOf(filePath: string): string {
  return LANGUAGES[extensionOf(filePath)] ?? 'plaintext';
}

// Which of a service's node:test files touch the database: those whose relative imports
// reach a file that reads TEST_PG_URL (the tests' database switch). `npm test` runs every
// file once, on PostgreSQL, and again on PGlite only the files that touch the database —
// a solver or parser test run twice adds time, not confidence.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SKIP = new Set(['node_modules', 'dist', 'dist-server']);
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every `*.test.ts` under `dir`'s src/ and test/, sorted, relative to `dir`. */
export function serviceTestFiles(dir) {
  const found = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (SKIP.has(e.name)) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts')) found.push(path.relative(dir, p));
    }
  };
  walk(path.join(dir, 'src'));
  walk(path.join(dir, 'test'));
  return found.sort();
}

/** A relative import as written (`./x.js`, `../y`) to the TypeScript file it means. */
function resolveImport(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.m?js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c)) ?? null;
}

/**
 * A file whose database only backs the app it drives (what it checks is Python's answers, a
 * provider's replies...) says so with this line, and runs once, on PostgreSQL.
 */
const ONCE = /^\/\/ npm test: once\b/m;

/** The files of `files` (relative to `dir`) that reach TEST_PG_URL through their relative imports, but for those marked ONCE. */
export function databaseTestFiles(dir, files) {
  const memo = new Map();
  const touches = (file) => {
    if (memo.has(file)) return memo.get(file);
    memo.set(file, false); // an import cycle adds nothing
    const text = readFileSync(file, 'utf8');
    let result = text.includes('TEST_PG_URL');
    for (const m of text.matchAll(IMPORT)) {
      if (result) break;
      const target = resolveImport(file, m[1]);
      if (target) result = touches(target);
    }
    memo.set(file, result);
    return result;
  };
  return files.filter((f) => touches(path.join(dir, f)) && !ONCE.test(readFileSync(path.join(dir, f), 'utf8')));
}

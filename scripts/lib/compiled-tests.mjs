// The services' node:test files compiled once per `npm test` run, so each test process starts
// on plain JavaScript instead of loading tsx and transforming the app on the fly: tsx costs a
// test process ~1.3–1.7 s of CPU (its own start, then its module hooks on every import), and
// npm test starts ~190 of them on 2 cores.
//
// The compiled files live in a shadow of the checkout (`<out>/<package>/src/…`, same depth as
// the real files) so every path the code builds from import.meta.url still lands on the file it
// means: each other file (package.json, node_modules, the .mjs and .py beside the code, the .ts
// sources that tests hash or start with tsx, README.md, scripts/, other packages' dist/) is a
// symlink to the real one.
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from './paths.mjs';

/** The folders of a package that hold its code and tests, compiled; the rest is linked. */
const COMPILED = new Set(['src', 'test']);
const SKIP = new Set(['node_modules', 'dist', 'dist-server']);

/**
 * The esbuild that tsx itself uses, with the package's tsconfig, as tsx does: the compiled
 * tests behave as under the packages' own `test` scripts (same transform, same class-field
 * semantics), and no second esbuild joins the install.
 */
function tsxEsbuild() {
  const root = createRequire(fromRoot('package.json'));
  return createRequire(root.resolve('tsx/package.json'))('esbuild');
}

/** Mirrors `from` into `to`: folders made, files linked; the TypeScript files found are returned. */
function mirror(from, to, typescript) {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const source = path.join(from, e.name);
    if (e.isDirectory()) mirror(source, path.join(to, e.name), typescript);
    else {
      symlinkSync(source, path.join(to, e.name));
      if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) typescript.push(source);
    }
  }
}

/**
 * Compiles `packages` (folders at the root, e.g. 'api') into the shadow checkout `out` and
 * returns it: run a package's tests from `<out>/<package>` with `node --enable-source-maps
 * --test <file>.test.js` (stack traces still name the .ts lines).
 */
export async function compileServiceTests(out, packages) {
  mkdirSync(out, { recursive: true });
  const root = fromRoot('.');
  const holder = path.relative(root, out).split(path.sep)[0];
  // The checkout's other top-level entries (README.md, scripts/, the other packages with their dist/).
  for (const e of readdirSync(root)) {
    if (!packages.includes(e) && e !== '.git' && e !== holder) symlinkSync(path.join(root, e), path.join(out, e));
  }
  const esbuild = tsxEsbuild();
  for (const pkg of packages) {
    const typescript = [];
    mkdirSync(path.join(out, pkg));
    for (const e of readdirSync(fromRoot(pkg))) {
      if (COMPILED.has(e)) mirror(fromRoot(pkg, e), path.join(out, pkg, e), typescript);
      else symlinkSync(fromRoot(pkg, e), path.join(out, pkg, e));
    }
    await esbuild.build({
      entryPoints: typescript,
      outdir: path.join(out, pkg),
      outbase: fromRoot(pkg),
      format: 'esm',
      platform: 'node',
      sourcemap: 'inline',
      tsconfig: fromRoot(pkg, 'tsconfig.json'),
      logLevel: 'warning',
    });
  }
  return out;
}

/** A test file's name in the shadow checkout (`test/x.test.ts` → `test/x.test.js`). */
export function compiledName(file) {
  return file.replace(/\.ts$/, '.js');
}

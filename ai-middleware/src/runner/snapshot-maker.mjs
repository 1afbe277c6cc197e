// Makes the Pyodide memory snapshot the runner children start from (pyodide-snapshot.ts):
// loads Pyodide once, as a fresh child would, and writes its memory to the file named.
// Runs before any user code and reads no input but Pyodide's own folder, so it needs no
// confinement; the children that load its file are confined as ever.
//
// Plain JavaScript for the same reason as child.mjs (it runs on the same Pyodide folder).
// argv: <pyodide folder> <snapshot file>
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [pyodideDir, target] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, stdout: () => {}, stderr: () => {}, _makeSnapshot: true });
const snapshot = pyodide.makeMemorySnapshot();
// Written whole, then renamed: a child never reads half a snapshot.
// The name says which maker: two services making the same snapshot at once never write one file.
const partial = `${target}.${process.pid}.partial`;
fs.writeFileSync(partial, snapshot, { mode: 0o644 });
fs.renameSync(partial, target);

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';
import { ChakraExportsPlugin, chakraExportsOf, installedVersion, sharedModules } from './index.js';

const mfeChat = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../mfe-chat');
const work = mkdtempSync(path.join(tmpdir(), 'tessera-chakra-share-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('Chakra is shared as one singleton that offers exactly the names of CHAKRA_EXPORTS, at Chakra’s own version', () => {
  const chakra = sharedModules(mfeChat)['@chakra-ui/react'];
  assert.equal(chakra.singleton, true);
  assert.equal(chakra.version, installedVersion('@chakra-ui/react', mfeChat));
  const subset = readFileSync(chakra.import, 'utf8');
  const names = /export \{ ([^}]*) \} from "([^"]+)"/.exec(subset);
  assert.deepEqual(names?.[1].split(', '), [...chakraExportsOf(mfeChat)]);
  // By file, not by the share key: the subset must not consume itself.
  assert.ok(path.isAbsolute(names?.[2] ?? ''), names?.[2]);
});

/** Compiles `source` with '@chakra-ui/react' standing for a stub; resolves to the plugin and the errors. */
function compile(source) {
  const entry = path.join(work, `entry-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(entry, source);
  const stub = path.join(work, 'chakra-stub.js');
  writeFileSync(stub, 'export const Box = 1, Button = 2, Accordion = 3;\n');
  const plugin = new ChakraExportsPlugin({ provided: ['Box', 'Button'] });
  const compiler = webpack({
    mode: 'development',
    context: work,
    entry,
    output: { path: path.join(work, 'out') },
    resolve: { alias: { '@chakra-ui/react$': stub } },
    plugins: [plugin],
  });
  return new Promise((resolve, reject) =>
    compiler.run((err, stats) => {
      compiler.close(() => {});
      if (err) reject(err);
      else resolve({ used: [...plugin.used].sort(), errors: stats?.toJson({ all: false, errors: true }).errors?.map((e) => e.message) ?? [] });
    }),
  );
}

test('a build records the Chakra names it uses, and fails naming one the shell does not provide', async () => {
  const fine = await compile("import { Box, Button } from '@chakra-ui/react';\nconsole.log(Box, Button);\n");
  assert.deepEqual(fine.used, ['Box', 'Button']);
  assert.deepEqual(fine.errors, []);

  const beyond = await compile("import { Box, Accordion } from '@chakra-ui/react';\nconsole.log(Box, Accordion);\n");
  assert.equal(beyond.errors.length, 1);
  assert.match(beyond.errors[0], /exports the shell does not provide \(add them to CHAKRA_EXPORTS[^]*entry-[a-z0-9]+\.js: Accordion/);

  const everything = await compile("import * as C from '@chakra-ui/react';\nconsole.log(C);\n");
  assert.match(everything.errors[0] ?? '', /a namespace import of @chakra-ui\/react may use any export/);
});

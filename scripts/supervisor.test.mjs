// `npm start`'s supervisor: a service that exits is started again, with a log line naming
// its exit code, and the backoff between restarts doubles from 1 s to 30 s.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startProcess } from './lib/stack.mjs';
import { restartDelay, supervise } from './lib/supervisor.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-supervisor-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function freePort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

test('the wait before each restart in a row: 1 s doubling, capped at 30 s', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 10].map(restartDelay), [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test('a service that exits is started again, and said so with its exit code; stop() ends it for good', async () => {
  // A tiny service: /health answers with its pid, /exit ends it with code 3.
  const script = path.join(dir, 'service.mjs');
  writeFileSync(
    script,
    `import { createServer } from 'node:http';
     createServer((req, res) => { if (req.url === '/exit') { res.end(); setTimeout(() => process.exit(3), 10); } else res.end(String(process.pid)); })
       .listen(Number(process.argv[2]), '127.0.0.1');`,
  );
  const port = await freePort();
  const spec = { name: 'svc', args: [script, String(port)], env: {}, ready: `http://127.0.0.1:${port}/health` };
  const logDir = path.join(dir, 'logs');
  const lines = [];
  const first = await startProcess(spec, { logDir });
  const back = new Promise((resolve) => {
    const sup = supervise(first, spec, { logDir, delay: () => 10, log: (l) => (lines.push(l), /up again/.test(l) && resolve(sup)) });
  });
  await fetch(`http://127.0.0.1:${port}/exit`);
  const sup = await back;

  assert.match(lines[0], /^\[tessera\] svc exited with code 3; restarting in 0\.01 s \(log: .*svc\.log\)$/);
  assert.equal(sup.restarts, 1);
  assert.notEqual(sup.pid, first.pid);
  assert.equal(await (await fetch(spec.ready)).text(), String(sup.pid));

  await sup.stop();
  await assert.rejects(fetch(spec.ready));
  assert.equal(sup.restarts, 1);
});

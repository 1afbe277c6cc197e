// Figure for issue 7 (AI assistant): the time to the first streamed event of POST
// /hybrid/forward in Agent • AI Powered with the builtin provider (no model), asked 'total of
// Amount by Region' on a 1,000-row sheet (each reply is read to its end and checked; how long
// the job takes is bench/code-runner.mjs's figure). The built ai-middleware in this process on
// 127.0.0.1, a throwaway PGlite, a local JWKS issuer for the token. Needs root (the runner's
// confinement) and ai-middleware built (`npm run build`).
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distRoot = path.join(root, 'ai-middleware/dist');
if (!existsSync(path.join(distRoot, 'app.js'))) {
  console.error('ai-stream: build ai-middleware first (npm run build)');
  process.exit(1);
}
const requireFromAi = createRequire(path.join(root, 'ai-middleware/package.json'));
const jose = await import(pathToFileURL(requireFromAi.resolve('jose')).href);
const contracts = await import(pathToFileURL(requireFromAi.resolve('@tessera/contracts')).href);
const { buildApp } = await import(pathToFileURL(path.join(distRoot, 'app.js')).href);
const { PACKAGE_VERSION } = await import(pathToFileURL(path.join(distRoot, 'config.js')).href);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `median ${median(xs).toFixed(1)} ms (${xs.map((x) => x.toFixed(1)).join(', ')})`;

// The api's JWKS, as a tiny local issuer.
const { publicKey, privateKey } = await jose.generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'bench', alg: 'EdDSA', use: 'sig' };
const issuer = createServer((req, res) => {
  if (req.url === contracts.JWKS_PATH) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  else res.writeHead(404).end();
});
await new Promise((resolve) => issuer.listen(0, '127.0.0.1', resolve));
const apiUrl = `http://127.0.0.1:${issuer.address().port}`;
const token = await new jose.SignJWT({ sub: 'bench-user', username: 'bench', role: 'user' })
  .setProtectedHeader({ alg: 'EdDSA', kid: 'bench' })
  .setIssuer(contracts.ACCESS_TOKEN_ISSUER)
  .setIssuedAt()
  .setExpirationTime('1h')
  .sign(privateKey);

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-ai-'));
const app = await buildApp({
  host: '127.0.0.1',
  port: 0,
  apiUrl,
  jwksUrl: new URL(`${apiUrl}${contracts.JWKS_PATH}`),
  dataDir,
  databaseUrl: undefined,
  provider: 'builtin',
  logLevel: 'silent',
  version: PACKAGE_VERSION,
  runner: { engine: 'pyodide', timeoutMs: 10_000, memoryMb: 256, poolSize: 1 },
});
const base = await app.listen({ host: '127.0.0.1', port: 0 });

const regions = ['North', 'South', 'East', 'West'];
const body = JSON.stringify({
  problem: 'total of Amount by Region',
  enable_ai_generation: true,
  sheet_context: { name: 'Bench' },
  handsontable_data: { spreadsheet_data: { headers: ['Region', 'Amount'], rows: Array.from({ length: 1000 }, (_, i) => [regions[i % 4], i]) } },
});

async function whenReady() {
  for (;;) {
    const health = await (await fetch(`${base}/health`)).json();
    if (health.checks?.code_runner === 'ok') {
      // A child is up once the state is ready; give the pool a moment to have one idle.
      await new Promise((r) => setTimeout(r, 300));
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const first = [];
try {
  await whenReady();
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/hybrid/forward`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body,
    });
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstAt;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (firstAt === undefined && text.includes('data: ')) firstAt = performance.now() - t0;
    }
    const events = text.split('\n\n').filter((b) => b.startsWith('data: ')).map((b) => JSON.parse(b.slice(6)));
    const response = events.at(-1).metadata.response;
    if (!response?.success || response.grid_update.rows.length !== 4) throw new Error(`bench: unexpected reply ${JSON.stringify(response).slice(0, 300)}`);
    first.push(firstAt);
  }
  console.log(`AI Powered (builtin), first SSE event: ${fmt(first.slice(1))}  [the first request, cold: ${first[0].toFixed(1)} ms]`);
} finally {
  await app.close();
  issuer.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}

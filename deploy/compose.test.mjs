// The deploy files as CI checks them: Debian's docker-compose (v1) resolves
// docker-compose.yml without a daemon, and what it resolves is the product:
// every service with a health check, two api replicas, data volumes, every
// variable documented, images that run as non-root (but the ai-middleware's code runner).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

async function compose(...args) {
  return (await run('docker-compose', ['-f', 'docker-compose.yml', ...args], { cwd: root, env: { ...process.env, COMPOSE_PROJECT_NAME: 'tessera' } })).stdout;
}

let missing = null;
try {
  await run('docker-compose', ['version']);
} catch {
  missing = 'docker-compose is not installed (apt-get install -y docker-compose)';
}

/** The resolved file split into its top-level service blocks (2-space YAML from `config`). */
function serviceBlocks(yaml) {
  const services = yaml.slice(yaml.indexOf('\nservices:\n') + 1).split(/\n(?=\S)/)[0];
  const blocks = {};
  for (const part of services.split(/\n(?=  [a-z][\w-]*:\n)/).slice(1)) {
    blocks[part.match(/^ {2}([\w-]+):/)[1]] = part;
  }
  return blocks;
}

describe('docker-compose.yml', { skip: missing ?? false }, () => {
  test('docker-compose config resolves it: every service, each with a health check and a restart policy', async () => {
    const yaml = await compose('config');
    const blocks = serviceBlocks(yaml);
    assert.deepEqual(Object.keys(blocks).sort(), [
      'ai-middleware', 'api', 'mfe-chat', 'mfe-git', 'mfe-members', 'mfe-sheets', 'postgres', 'redis', 'shell',
    ]);
    for (const [name, block] of Object.entries(blocks)) {
      assert.match(block, /\n {4}healthcheck:\n(?: {6}.*\n)* {6}test:/, `${name} has a health check`);
      assert.match(block, /\n {4}restart: unless-stopped/, `${name} restarts`);
    }
    assert.match(blocks.api, /\n {4}scale: 2\n/);
    assert.match(blocks.api, /REDIS_URL: redis:\/\/redis:6379/);
    // The api believes the X-Forwarded-For of its own network (the shell), and only that.
    const subnet = /(?:^|\n)networks:\n {2}default:\n(?: {4}.*\n)*? +- subnet: (\S+)\n/.exec(yaml)?.[1];
    assert.equal(subnet, '172.28.0.0/16');
    assert.match(blocks.api, new RegExp(`TRUST_PROXY: ${subnet.replace(/[./]/g, '\\$&')}\n`));
    assert.match(blocks.shell, /API_URL: http:\/\/api:8083/);
    for (const remote of ['mfe-sheets', 'mfe-chat', 'mfe-git', 'mfe-members']) {
      assert.match(blocks[remote], /target: remote-origin/);
      assert.match(blocks[remote], new RegExp(`REMOTE: ${remote}\\n`));
      assert.match(blocks[remote], /SHELL_ORIGIN: http:\/\/localhost:3000/);
    }
    for (const volume of ['postgres-data', 'api-data', 'ai-data', 'shell-data', 'releases']) {
      assert.match(yaml.slice(yaml.lastIndexOf('\nvolumes:\n')), new RegExp(`\\n {2}${volume}: \\{\\}`), `volume ${volume}`);
    }
  });

  test('only the ai-middleware gets a capability (SYS_ADMIN, for the code runner); nothing is privileged', async () => {
    const blocks = serviceBlocks(await compose('config'));
    for (const [name, block] of Object.entries(blocks)) {
      assert.doesNotMatch(block, /privileged: true/, name);
      if (name === 'ai-middleware') assert.match(block, /\n {4}cap_add:\n {4}- SYS_ADMIN\n/);
      else assert.doesNotMatch(block, /cap_add/, name);
    }
  });

  test('every environment variable it sets or reads is documented in deploy/README.md', async () => {
    const source = readFileSync(new URL('../docker-compose.yml', import.meta.url), 'utf8').replace(/^\s*#.*$/gm, '');
    const doc = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const set = [...(await compose('config')).matchAll(/^ {6}([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1]);
    const read = [...source.matchAll(/\$\{([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]);
    const names = [...new Set([...set, ...read])];
    assert.ok(names.length > 20, names.join(' '));
    assert.deepEqual(names.filter((n) => !doc.includes(`\`${n}\``)), []);
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync(new URL('./Dockerfile', import.meta.url), 'utf8');
  const stages = dockerfile.split(/^(?=FROM )/m).slice(1);
  const stage = (name) => stages.find((s) => new RegExp(`^FROM \\S+ AS ${name}\\s`).test(s));

  test('is multi-stage: the services copy the build, not the sources and their tools', () => {
    assert.ok(stage('build'));
    assert.match(stage('runtime'), /COPY --from=build --chown=node:node \/src \/app/);
    for (const target of ['api', 'ai-middleware', 'shell', 'remote-origin']) {
      assert.match(stage(target), /^FROM runtime AS /, target);
      assert.match(stage(target), /\nCMD \[/, `${target} has a command`);
    }
  });

  test('every service stage but the ai-middleware runs as the unprivileged node user', () => {
    assert.match(stage('runtime'), /\nUSER node\n/);
    for (const target of ['api', 'shell', 'remote-origin']) {
      const users = [...stage(target).matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
      assert.notEqual(users.at(-1), 'root', target);
    }
  });

  test('the ai-middleware stage runs as root for the code runner, the only one', () => {
    // The runner needs root and namespaces to confine each job; its job processes drop to nobody.
    assert.match(stage('ai-middleware'), /^USER root$/m);
  });
});

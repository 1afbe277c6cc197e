#!/usr/bin/env node
// `npm run remotes -- list|set|rollback|canary`: ops swap the remotes' versions in
// remotes.json, which the shell reads at every page load (no rebuild, no restart).
import { parseArgs } from 'node:util';
import { clearCanary, describe, parseShellOrigin, releaseBase, rollback, setCanary, setLive } from '../src/commands.mjs';
import { manifestPath, readManifest, writeManifestAtomic } from '../src/manifest-file.mjs';
import { checkRelease } from '../src/release-check.mjs';

const USAGE = `usage: npm run remotes -- <command> [--file remotes.json]
  list                                      each remote's live, previous and canary release
  set <remote> <version> [--origin URL]     make a released version live (the live one becomes previous)
  rollback <remote>                         make the previous release live again
  canary <remote> <version> <percent> [--users id,id] [--origin URL]
                                            show the version to that share of users (of the listed ones)
  canary <remote> off                       end the canary
Before writing, the release's mf-manifest.json must load and declare the shell's contracts major;
with --shell-origin URL (else SHELL_ORIGIN) over https, a release served over http is refused.
The file: --file, else REMOTES_MANIFEST, else DATA_DIR/remotes.json (DATA_DIR: ./data).`;

function usage(message) {
  if (message) console.error(message);
  console.error(USAGE);
  process.exit(2);
}

let values;
let positionals;
try {
  ({ values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      file: { type: 'string' },
      origin: { type: 'string' },
      users: { type: 'string' },
      'shell-origin': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  usage(err.message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const [command, ...args] = positionals;
let shellOrigin;
try {
  shellOrigin = parseShellOrigin(values['shell-origin'] ?? process.env.SHELL_ORIGIN);
} catch (err) {
  usage(err.message);
}
const file = manifestPath(values.file);
const check = (release) => checkRelease(release);

async function available(manifest) {
  const out = {};
  await Promise.all(
    Object.entries(manifest.remotes).map(async ([remote, entry]) => {
      const base = releaseBase(entry, remote);
      try {
        const res = await fetch(base, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(3000) });
        const body = res.ok ? await res.json() : null;
        out[remote] = Array.isArray(body?.versions) ? { ok: true, versions: body.versions } : { ok: false, error: `${base} answered ${res.status}` };
      } catch (err) {
        out[remote] = { ok: false, error: `${base} unreachable: ${err.cause?.code ?? err.message}` };
      }
    }),
  );
  return out;
}

async function main() {
  const manifest = await readManifest(file);
  let result;
  switch (command) {
    case 'list':
      if (args.length) usage('list takes no arguments');
      console.log(`${file}\n${describe(manifest, await available(manifest)).join('\n')}`);
      return;
    case 'set':
      if (args.length !== 2) usage('set needs <remote> <version>');
      result = await setLive(manifest, args[0], args[1], { origin: values.origin, check, shellOrigin });
      break;
    case 'rollback':
      if (args.length !== 1) usage('rollback needs <remote>');
      result = await rollback(manifest, args[0], { check, shellOrigin });
      break;
    case 'canary':
      if (args.length === 2 && args[1] === 'off') result = clearCanary(manifest, args[0]);
      else if (args.length === 3) result = await setCanary(manifest, args[0], args[1], args[2], { users: values.users, origin: values.origin, check, shellOrigin });
      else usage('canary needs <remote> <version> <percent>, or <remote> off');
      break;
    default:
      usage(command ? `unknown command "${command}"` : undefined);
  }
  if (result.manifest !== manifest) await writeManifestAtomic(file, result.manifest);
  console.log(result.message);
}

main().catch((err) => {
  console.error(`remotes: ${err.message}`);
  process.exit(1);
});

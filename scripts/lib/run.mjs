// Running commands from the root scripts: streamed output, optional capture.
import { spawn } from 'node:child_process';

/**
 * Runs a command, streaming its output with an optional prefix, and resolves
 * with its exit code and (when `capture`) the combined output.
 */
export function run(cmd, args, { cwd, env, capture = false, quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (stream) => (chunk) => {
      if (capture) out += chunk;
      if (!quiet) stream.write(chunk);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    child.on('error', (err) => resolve({ code: 127, out: out + String(err) }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), out }));
  });
}

/** Like run, but throws on failure; a quiet command's output is shown then. */
export async function mustRun(cmd, args, opts = {}) {
  const r = await run(cmd, args, { ...opts, capture: opts.capture || opts.quiet });
  if (r.code !== 0) {
    if (opts.quiet) process.stderr.write(r.out);
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.code}`);
  }
  return r;
}

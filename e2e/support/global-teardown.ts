import { readPids, stopService } from './stack';

export default async function globalTeardown() {
  for (const name of Object.keys(readPids()).reverse()) await stopService(name);
}

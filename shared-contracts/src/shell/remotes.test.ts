import { readFileSync } from 'node:fs';
import { CONTRACTS_MAJOR } from './contracts-version.js';
import { canaryBucket, inCanary, insecureRemoteRefusal, RemoteManifestFileSchema, RemotesManifestSchema } from './remotes.js';

const live = { version: '1.0.0', manifest: 'http://localhost:3002/1.0.0/mf-manifest.json' };
const canary = { version: '1.1.0', manifest: 'http://localhost:3002/1.1.0/mf-manifest.json' };

describe('remotes manifest schema', () => {
  it('takes a canary for a percentage, optionally limited to listed user ids', () => {
    const parsed = RemotesManifestSchema.parse({
      remotes: { 'mfe-chat': { live, canary: { ...canary, percent: 100, userIds: ['u1'] } } },
    });
    expect(parsed.remotes['mfe-chat']?.canary?.userIds).toEqual(['u1']);
  });

  it('refuses a canary of the live version, a percentage outside 0–100, an empty id list', () => {
    const bad = [
      { ...live, percent: 10 },
      { ...canary, percent: 101 },
      { ...canary, percent: 12.5 },
      { ...canary, percent: 10, userIds: [] },
      { ...canary },
    ];
    for (const c of bad) {
      expect(RemotesManifestSchema.safeParse({ remotes: { 'mfe-chat': { live, canary: c } } }).success).toBe(false);
    }
  });

  it('reads the build info a remote declares in its mf-manifest.json', () => {
    const info = RemoteManifestFileSchema.parse({
      id: 'mfe_chat',
      metaData: { name: 'mfe_chat', tessera: { remote: 'mfe-chat', version: '1.1.0', contractsMajor: 1 } },
    });
    expect(info.metaData.tessera.contractsMajor).toBe(1);
    expect(RemoteManifestFileSchema.safeParse({ metaData: { name: 'mfe_chat' } }).success).toBe(false);
  });
});

describe('canary choice', () => {
  const ids = Array.from({ length: 2000 }, (_, i) => `user-${i}`);

  it('is stable per user and grows with the percentage', () => {
    const at = (percent: number) => ids.filter((id) => inCanary('mfe-chat', { ...canary, percent }, id));
    expect(at(0)).toEqual([]);
    expect(at(100)).toEqual(ids);
    const ten = at(10);
    const fifty = at(50);
    expect(ten.every((id) => fifty.includes(id))).toBe(true);
    // Roughly the asked share of users (2,000 ids: well within ±5 points).
    expect(ten.length / ids.length).toBeGreaterThan(0.05);
    expect(ten.length / ids.length).toBeLessThan(0.15);
    expect(canaryBucket('mfe-chat', '1.1.0', 'user-7')).toBe(canaryBucket('mfe-chat', '1.1.0', 'user-7'));
  });

  it('with user ids, only those users are in, even at 100%', () => {
    const c = { ...canary, percent: 100, userIds: ['user-3'] };
    expect(ids.filter((id) => inCanary('mfe-chat', c, id))).toEqual(['user-3']);
  });
});

describe('contracts major', () => {
  it('is the major of the contracts package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', `file://${__filename}`), 'utf8')) as { version: string };
    expect(CONTRACTS_MAJOR).toBe(Number(pkg.version.split('.')[0]));
  });
});

describe('insecureRemoteRefusal', () => {
  it('refuses an http:// release for a shell served over https, and nothing else', () => {
    expect(insecureRemoteRefusal('http://cdn.example/1.0.0/mf-manifest.json', 'https:')).toBe(
      "http://cdn.example/1.0.0/mf-manifest.json is served over http://, but the shell is served over https://: a remote's scripts must be served over https too",
    );
    expect(insecureRemoteRefusal('https://cdn.example/1.0.0/mf-manifest.json', 'https:')).toBeNull();
    expect(insecureRemoteRefusal('http://localhost:3002/1.0.0/mf-manifest.json', 'http:')).toBeNull();
    expect(insecureRemoteRefusal('auto', 'https:')).toBeNull();
  });
});

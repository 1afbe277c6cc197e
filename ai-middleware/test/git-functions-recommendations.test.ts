// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the functions recommended from the repository.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ErrorBodySchema,
  GitFunctionsResponseSchema,
  GitRecommendationsSchema,
  CapabilitiesSchema,
} from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';

describe('git: functions and commit recommendations', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let token: string;

  before(async () => {
    issuer = await startTestIssuer();
    t = await startTestApp(issuer.apiUrl);
    token = await issuer.sign({ sub: 'u-1', username: 'dave', role: 'user' });
  });
  after(async () => {
    await t?.close();
    await issuer?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  const recommend = async (changes: unknown[]) => {
    const res = await call('POST', '/git/recommendations', { changes });
    assert.equal(res.statusCode, 200, res.body);
    return GitRecommendationsSchema.parse(res.json());
  };

  test('functions of .py and .ts files at the head, with descriptions; other files ignored', async () => {
    assert.deepEqual(GitFunctionsResponseSchema.parse((await call('GET', '/git/functions')).json()), { functions: [], count: 0, truncated: false });
    const res = await call('POST', '/git/commits', {
      message: 'Add code',
      base_commit: null,
      changes: [
        { path: 'solver/rota.py', action: 'upsert', content: 'def build(days):\n    """Build the rota for the given days."""\n    return []\n' },
        { path: 'web/util.ts', action: 'upsert', content: '/** Clamps a value. */\nexport function clamp(v: number): number {\n  return Math.max(0, v);\n}\n' },
        { path: 'web/other.js', action: 'upsert', content: 'function ignored() {}\n' },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    const { functions, count } = GitFunctionsResponseSchema.parse((await call('GET', '/git/functions')).json());
    assert.equal(count, 2);
    assert.deepEqual(functions, [
      {
        id: 'solver/rota.py:build:1',
        name: 'build',
        description: 'Build the rota for the given days.',
        filePath: 'solver/rota.py',
        code: 'def build(days):\n    """Build the rota for the given days."""\n    return []',
        language: 'python',
        line: 1,
      },
      {
        id: 'web/util.ts:clamp:2',
        name: 'clamp',
        description: 'Clamps a value.',
        filePath: 'web/util.ts',
        code: 'export function clamp(v: number): number {\n  return Math.max(0, v);\n}',
        language: 'typescript',
        line: 2,
      },
    ]);
  });

  test('recommendations: a small edit goes to main with a plain message', async () => {
    const rec = await recommend([{ path: 'web/util.ts', action: 'upsert', content: '/** Clamps a value. */\nexport function clamp(v: number): number {\n  return Math.max(1, v);\n}\n' }]);
    assert.deepEqual(rec, {
      suggested_commit_message: 'Update web/util.ts',
      affected_files: ['web/util.ts'],
      branch_recommendations: [{ name: 'main', description: 'Small change (2 changed lines in 1 file): commit directly to main.' }],
      collaboration_impact: { breaking_changes: false, review_required: false, merge_complexity: 'low', team_notification: false },
      source: 'summary',
    });
    // Deterministic: the same input gives the same answer.
    assert.deepEqual(await recommend([{ path: 'web/util.ts', action: 'upsert', content: '/** Clamps a value. */\nexport function clamp(v: number): number {\n  return Math.max(1, v);\n}\n' }]), rec);
  });

  test('recommendations: deleting a file or removing a function is breaking and wants review', async () => {
    const rec = await recommend([
      { path: 'solver/rota.py', action: 'upsert', content: 'def plan(days):\n    return []\n' },
      { path: 'web/other.js', action: 'delete' },
      { path: 'solver/new.py', action: 'upsert', content: 'x = 1\n' },
    ]);
    assert.equal(rec.suggested_commit_message, 'Add 1 file, update 1 file, delete 1 file');
    assert.deepEqual(rec.affected_files, ['solver/rota.py', 'web/other.js', 'solver/new.py']);
    assert.deepEqual(rec.collaboration_impact, { breaking_changes: true, review_required: true, merge_complexity: 'low', team_notification: true });
    assert.equal(rec.branch_recommendations[0].name, 'feature/update-rota');
    assert.match(rec.branch_recommendations[0].description, /deletes web\/other\.js; removes build\(\)/);
  });

  test('recommendations: many new files in one folder are medium or high complexity', async () => {
    const changes = Array.from({ length: 12 }, (_, i) => ({ path: `docs/page${i}.md`, action: 'upsert', content: `# Page ${i}\n` }));
    const rec = await recommend(changes);
    assert.equal(rec.suggested_commit_message, 'Add 12 files in docs/');
    assert.equal(rec.collaboration_impact.merge_complexity, 'high');
    assert.equal(rec.collaboration_impact.breaking_changes, false);
    assert.equal(rec.collaboration_impact.review_required, true);
  });

  test('recommendations refuse bad paths and bad bodies, and /config stays truthful', async () => {
    const bad = await call('POST', '/git/recommendations', { changes: [{ path: '../x.py', action: 'upsert', content: '' }] });
    assert.equal(bad.statusCode, 400);
    assert.equal(ErrorBodySchema.parse(bad.json()).error.code, 'invalid_path');
    assert.equal((await call('POST', '/git/recommendations', { changes: [] })).statusCode, 400);
    assert.equal((await call('POST', '/git/recommendations', {})).statusCode, 400);
    // Recommendations never commit.
    const history = await call('GET', '/git/history');
    assert.equal(history.json().count, 1);
    const config = CapabilitiesSchema.parse((await t.app.inject({ method: 'GET', url: '/config' })).json());
    assert.equal(config.provider, 'builtin');
  });
});

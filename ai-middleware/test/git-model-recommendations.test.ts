// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the model's recommendations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GitRecommendationsSchema } from '@tessera/contracts';
import { type TestIssuer, startTestIssuer } from './helpers/jwks-server.js';
import { type TestApp, startTestApp } from './helpers/test-app.js';
import { type FakeOpenAi, startFakeOpenAi } from './support/fake-openai.js';

/** POST /git/recommendations with a model configured: the model writes the message and branch advice. */
describe('git recommendations from the configured model', () => {
  let issuer: TestIssuer;
  let model: FakeOpenAi;
  let t: TestApp;
  let token: string;

  before(async () => {
    issuer = await startTestIssuer();
    model = await startFakeOpenAi();
    t = await startTestApp(issuer.apiUrl, { provider: 'openai', openai: { baseUrl: model.baseUrl, model: 'gpt-4o-mini', apiKey: 'sk-test' } });
    token = await issuer.sign({ sub: 'u-1', username: 'dave', role: 'user' });
  });
  after(async () => {
    await t?.close();
    await model?.close();
    await issuer?.close();
  });

  const recommend = async (changes: unknown[]) => {
    const res = await t.app.inject({ method: 'POST', url: '/git/recommendations', payload: { changes }, headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 200, res.body);
    return GitRecommendationsSchema.parse(res.json());
  };
  const change = [{ path: 'solver/rota.py', action: 'upsert', content: 'def build(days):\n    return [0] * days\n' }];

  test("the model's message and branches, on the summary's facts; the model saw the diff", async () => {
    model.reply({
      chunks: ['```json\n{"suggested_commit_message": "Add the rota builder",', ' "branch_recommendations": [{"name": "main", "description": "A small new module."}]}\n```'],
    });
    const rec = await recommend(change);
    assert.equal(rec.source, 'model');
    assert.equal(rec.suggested_commit_message, 'Add the rota builder');
    assert.deepEqual(rec.branch_recommendations, [{ name: 'main', description: 'A small new module.' }]);
    assert.deepEqual(rec.affected_files, ['solver/rota.py']);
    assert.equal(rec.collaboration_impact.breaking_changes, false);
    const sent = model.requests.at(-1)!.body.messages.map((m) => m.content).join('\n');
    assert.match(sent, /\+def build\(days\):/);
  });

  test('a reply that is not the asked JSON, or a model error, falls back to the diff summary', async () => {
    model.reply({ chunks: ['Looks good to me!'] });
    const prose = await recommend(change);
    assert.equal(prose.source, 'summary');
    assert.equal(prose.suggested_commit_message, 'Add solver/rota.py');

    model.reply({ status: 500, body: { error: { message: 'overloaded', type: 'server_error' } } });
    const failed = await recommend(change);
    assert.equal(failed.source, 'summary');
    assert.deepEqual(failed.affected_files, ['solver/rota.py']);
  });
});

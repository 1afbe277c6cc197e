// The openai provider against a fake OpenAI-compatible server on loopback that speaks the real
// streaming chunk protocol (test/support/fake-openai.ts): the openai client does the talking.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NO_MODEL_CONFIGURED_MESSAGE } from '@tessera/contracts';
import { loadConfig } from '../src/config.js';
import { type AiProvider, ProviderError, complete, createProvider } from '../src/providers/provider.js';
import { type FakeOpenAi, startFakeOpenAi } from './support/fake-openai.js';

describe('openai provider (chat.completions streaming)', () => {
  let fake: FakeOpenAi;
  let provider: AiProvider;

  before(async () => {
    fake = await startFakeOpenAi();
    provider = createProvider(loadConfig({ AI_PROVIDER: 'openai', AI_BASE_URL: fake.baseUrl, AI_MODEL: 'llama3.1:8b', AI_API_KEY: 'sk-test' }));
  });
  after(() => fake?.close());

  test('names itself and its model', () => {
    assert.equal(provider.name, 'openai');
    assert.equal(provider.model, 'llama3.1:8b');
  });

  test('yields the reply chunk by chunk, in order, and sends the model, messages, temperature and key', async () => {
    fake.reply({ chunks: ['Hel', 'lo, ', 'Zürich'] });
    const chunks: string[] = [];
    for await (const chunk of provider.stream([{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], { temperature: 0.7 })) {
      chunks.push(chunk);
    }
    assert.deepEqual(chunks, ['Hel', 'lo, ', 'Zürich']);
    const request = fake.requests.at(-1)!;
    assert.equal(request.body.model, 'llama3.1:8b');
    assert.equal(request.body.stream, true);
    assert.equal(request.body.temperature, 0.7);
    assert.deepEqual(request.body.messages, [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }]);
    assert.equal(request.authorization, 'Bearer sk-test');
    assert.equal(await request.ended, 'completed');
  });

  test('an HTTP refusal: ProviderError "HTTP {status}: {the provider’s message}"', async () => {
    fake.reply({ status: 401, body: { error: { message: 'Incorrect API key provided: sk-test.', type: 'invalid_request_error', code: 'invalid_api_key' } } });
    await assert.rejects(complete(provider, [{ role: 'user', content: 'hi' }]), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.message, 'HTTP 401: Incorrect API key provided: sk-test.');
      assert.equal(err.status, 401);
      return true;
    });
    // Ollama's error body is {"error": "<text>"}; a proxy may answer plain text.
    fake.reply({ status: 404, body: { error: "model 'llama3.1:8b' not found, try pulling it first" } }, { status: 502, body: 'Bad gateway' });
    await assert.rejects(complete(provider, [{ role: 'user', content: 'hi' }]), { message: "HTTP 404: model 'llama3.1:8b' not found, try pulling it first" });
    await assert.rejects(complete(provider, [{ role: 'user', content: 'hi' }]), { message: 'HTTP 502: Bad gateway' });
  });

  test('an error event mid-stream: the chunks before it, then ProviderError with the provider’s text', async () => {
    fake.reply({ chunks: ['partial'], streamError: { message: 'The server is overloaded, try again later' } });
    const chunks: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const chunk of provider.stream([{ role: 'user', content: 'hi' }])) chunks.push(chunk);
      })(),
      (err: unknown) => err instanceof ProviderError && err.message === 'The server is overloaded, try again later',
    );
    assert.deepEqual(chunks, ['partial']);
  });

  test('aborting the signal mid-stream closes the request to the provider', async () => {
    fake.reply({ chunks: Array.from({ length: 200 }, (_, i) => `${i} `), pauseMs: 20 });
    const controller = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const chunk of provider.stream([{ role: 'user', content: 'count' }], { signal: controller.signal })) {
          seen.push(chunk);
          if (seen.length === 2) controller.abort(new Error('stopped by the user'));
        }
      })(),
      { message: 'stopped by the user' },
    );
    assert.equal(await fake.requests.at(-1)!.ended, 'aborted');
    assert.ok(seen.length < 200);
  });

  test('an endpoint that does not answer: ProviderError "Stream failed: …"', async () => {
    const down = createProvider(loadConfig({ AI_PROVIDER: 'openai', AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'm' }));
    await assert.rejects(complete(down, [{ role: 'user', content: 'hi' }]), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.match(err.message, /^Stream failed: Connection error/);
      return true;
    });
  });
});

describe('builtin provider', () => {
  test('has no model and says so, with how to configure one, whatever it is asked', async () => {
    const builtin = createProvider(loadConfig({}));
    assert.equal(builtin.name, 'builtin');
    assert.equal(builtin.model, null);
    assert.equal(await complete(builtin, [{ role: 'user', content: 'Write me a poem' }]), NO_MODEL_CONFIGURED_MESSAGE);
    assert.match(NO_MODEL_CONFIGURED_MESSAGE, /AI_PROVIDER=openai with AI_BASE_URL, AI_MODEL and AI_API_KEY/);
  });
});

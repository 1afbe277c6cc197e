// The vertex provider against a fake Vertex AI endpoint on loopback that speaks the real REST
// protocol: POST …/publishers/google/models/{model}:streamGenerateContent?alt=sse with an API
// key, answered with Server-Sent Events of GenerateContentResponse JSON; errors as Google's
// {error: {code, message, status}} bodies.
import assert from 'node:assert/strict';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';
import { type AiProvider, ProviderError, complete, createProvider } from '../src/providers/provider.js';

interface Seen {
  url: string;
  apiKey: string | undefined;
  body: { contents: Array<{ role: string; parts: Array<{ text: string }> }>; systemInstruction?: { parts: Array<{ text: string }> }; generationConfig?: { temperature?: number } };
  ended: Promise<'completed' | 'aborted'>;
}
type Script = { texts: string[]; pauseMs?: number; finishReason?: string } | { status: number; body: string };

describe('vertex provider (Gemini streamGenerateContent, alt=sse)', () => {
  const seen: Seen[] = [];
  const scripts: Script[] = [];
  let base: string;
  let server: ReturnType<typeof createServer>;
  let provider: AiProvider;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let finished = false;
    const ended = new Promise<'completed' | 'aborted'>((resolve) => res.on('close', () => resolve(finished ? 'completed' : 'aborted')));
    seen.push({ url: req.url ?? '', apiKey: req.headers['x-goog-api-key'] as string | undefined, body: JSON.parse(raw) as Seen['body'], ended });
    const script = scripts.shift()!;
    if ('status' in script) {
      finished = true;
      res.writeHead(script.status, { 'content-type': 'application/json; charset=UTF-8' }).end(script.body);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [i, text] of script.texts.entries()) {
      if (script.pauseMs) await new Promise((r) => setTimeout(r, script.pauseMs));
      if (res.destroyed) return;
      const last = i === script.texts.length - 1;
      const chunk = {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(last ? { finishReason: script.finishReason ?? 'STOP' } : {}) }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: i + 1, totalTokenCount: 6 + i },
        modelVersion: 'gemini-2.5-flash',
        createTime: new Date().toISOString(),
        responseId: 'resp-1',
      };
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    }
    finished = true;
    res.end();
  }

  before(async () => {
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    provider = createProvider(loadConfig({ AI_PROVIDER: 'vertex', AI_BASE_URL: base, AI_API_KEY: 'vx-key' }));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('calls the express-mode path with the key, maps roles and the system prompt, yields the text in order', async () => {
    assert.equal(provider.name, 'vertex');
    assert.equal(provider.model, 'gemini-2.5-flash');
    scripts.push({ texts: ['Bon', 'jour ', 'Zürich'] });
    const chunks: string[] = [];
    const messages = [
      { role: 'system' as const, content: 'Answer briefly.' },
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
      { role: 'user' as const, content: 'and in French?' },
    ];
    for await (const chunk of provider.stream(messages, { temperature: 0.7 })) chunks.push(chunk);
    assert.deepEqual(chunks, ['Bon', 'jour ', 'Zürich']);
    const request = seen.at(-1)!;
    assert.equal(request.url, '/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    assert.equal(request.apiKey, 'vx-key');
    assert.deepEqual(request.body.systemInstruction, { parts: [{ text: 'Answer briefly.' }] });
    assert.deepEqual(
      request.body.contents.map((c) => [c.role, c.parts[0]!.text]),
      [['user', 'hi'], ['model', 'hello'], ['user', 'and in French?']],
    );
    assert.equal(request.body.generationConfig?.temperature, 0.7);
  });

  test('VERTEX_PROJECT: the regional project path', async () => {
    const regional = createProvider(loadConfig({ AI_PROVIDER: 'vertex', AI_BASE_URL: base, AI_API_KEY: 'k', VERTEX_PROJECT: 'my-project-1', VERTEX_LOCATION: 'europe-west4', AI_MODEL: 'gemini-2.5-pro' }));
    scripts.push({ texts: ['ok'] });
    assert.equal(await complete(regional, [{ role: 'user', content: 'hi' }]), 'ok');
    assert.equal(seen.at(-1)!.url, '/v1/projects/my-project-1/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
  });

  test('Google’s error body: ProviderError "HTTP {status}: {its message}"', async () => {
    scripts.push({ status: 400, body: JSON.stringify({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } }) });
    await assert.rejects(complete(provider, [{ role: 'user', content: 'hi' }]), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.message, 'HTTP 400: API key not valid. Please pass a valid API key.');
      return true;
    });
  });

  test('a refusal with no text (finishReason SAFETY) is an error, not an empty answer', async () => {
    scripts.push({ texts: [''], finishReason: 'SAFETY' });
    await assert.rejects(complete(provider, [{ role: 'user', content: 'hi' }]), { message: 'The model stopped without an answer: SAFETY' });
  });

  test('aborting the signal closes the request to Vertex', async () => {
    scripts.push({ texts: Array.from({ length: 100 }, (_, i) => `${i} `), pauseMs: 20 });
    const controller = new AbortController();
    let count = 0;
    await assert.rejects(
      (async () => {
        for await (const _ of provider.stream([{ role: 'user', content: 'count' }], { signal: controller.signal })) {
          if (++count === 2) controller.abort(new Error('stopped'));
        }
      })(),
      { message: 'stopped' },
    );
    assert.equal(await seen.at(-1)!.ended, 'aborted');
  });

  test('configuration: a key is required; a bad project or model is refused at start', () => {
    assert.throws(() => loadConfig({ AI_PROVIDER: 'vertex' }), (err: unknown) => err instanceof ConfigError && /AI_API_KEY/.test(err.message));
    assert.throws(() => loadConfig({ AI_PROVIDER: 'vertex', AI_API_KEY: 'k', VERTEX_PROJECT: 'Bad Project!' }), ConfigError);
    assert.throws(() => loadConfig({ AI_PROVIDER: 'vertex', AI_API_KEY: 'k', AI_MODEL: '../x' }), ConfigError);
  });
});

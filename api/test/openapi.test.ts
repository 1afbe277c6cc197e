// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the OpenAPI document.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { API_TOKENS_PATH, CreatedApiTokenSchema } from '@tessera/contracts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Fastify from 'fastify';
import { z } from 'zod';
import { openApiPath, type OpenApiDocument } from '../src/openapi/openapi-document.js';
import { installOpenApi } from '../src/openapi/openapi.routes.js';
import { withDoc } from '../src/openapi/route-doc.js';
import { apiClient } from './support/api-client.js';
import { installResponseCheck } from './support/response-check.js';
import { signupAdmin, type Session } from './support/auth-helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const key = (method: string, url: string) => `${method} ${url}`;

describe('the OpenAPI document', () => {
  let t: TestApp;
  let session: Session;
  let doc: OpenApiDocument;
  before(async () => {
    t = await createTestApp();
    session = await signupAdmin(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    doc = res.json();
  });
  after(() => t.close());

  it('is OpenAPI 3.1, public, and says how to authenticate: a bearer JWT or a personal API token', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'Tessera API');
    assert.deepEqual(doc.security, [{ bearer: [] }]);
    assert.deepEqual(doc.components.securitySchemes.bearer, {
      type: 'http',
      scheme: 'bearer',
      description: 'A session access token (JWT) or a personal API token (`tsr_…`, scope read or read-write).',
    });
    // The same document with a token.
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { authorization: `Bearer ${session.accessToken}` } });
    assert.deepEqual(res.json(), doc);
  });

  it('lists every registered /api/v1 route with its method and path parameters, and nothing else', () => {
    const registered = t.routes.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD');
    assert.ok(registered.length > 50, `only ${registered.length} routes collected`);
    const listed = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) listed.add(key(method.toUpperCase(), path));
    }
    for (const route of registered) {
      const { path, params } = openApiPath(route.url);
      const operation = doc.paths[path]?.[route.method.toLowerCase()] as
        | { parameters?: { name: string; in: string; required?: boolean }[]; security?: unknown[]; responses: object }
        | undefined;
      assert.ok(operation, `${key(route.method, route.url)} is missing from the document`);
      const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path');
      assert.deepEqual(pathParams.map((p) => p.name), params, `${key(route.method, route.url)} path parameters`);
      assert.ok(pathParams.every((p) => p.required === true), key(route.method, route.url));
      // Public routes say so; the rest inherit the bearer requirement.
      assert.deepEqual(operation.security, route.public ? [] : undefined, `${key(route.method, route.url)} security`);
      listed.delete(key(route.method, path));
    }
    assert.deepEqual([...listed], [], 'the document lists routes the app does not have');
  });

  it('declares a success response with a schema for every route (errors: the ErrorBody default)', () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const responses = (operation as { responses: Record<string, { content?: object }> }).responses;
        const success = Object.entries(responses).filter(([status]) => /^2\d\d$/.test(status));
        if (!success.length || !success.some(([status, r]) => r.content || status === '204')) missing.push(`${method} ${path}`);
        assert.deepEqual(responses.default?.content, { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } });
      }
    }
    assert.deepEqual(missing, []);
  });

  it('describes bodies and queries from the same contracts schemas the routes validate with', () => {
    const login = doc.paths['/api/v1/auth/login']!.post as { requestBody: { content: Record<string, { schema: { $ref: string } }> } };
    assert.equal(login.requestBody.content['application/json']!.schema.$ref, '#/components/schemas/LoginBody');
    const list = doc.paths['/api/v1/sheets']!.get as { parameters: { name: string; in: string }[] };
    assert.deepEqual(list.parameters.filter((p) => p.in === 'query').map((p) => p.name).sort(), ['favorites', 'group_id', 'limit', 'offset', 'order', 'search', 'sort']);
    // A windowed sheet's row filter, and find with it on: a POST for its body (the filters' texts, up to FILTER_BODY_MAX_BYTES), described by its contracts schema.
    for (const [path, body] of [['/api/v1/sheets/{id}/filter', 'SheetFilterBody'], ['/api/v1/sheets/{id}/filter/values', 'SheetFilterValuesBody'], ['/api/v1/sheets/{id}/find', 'FilteredFindBody']]) {
      const filter = doc.paths[path]?.post as { requestBody: { content: Record<string, { schema: { $ref: string } }> } } | undefined;
      assert.equal(filter?.requestBody.content['application/json']!.schema.$ref, `#/components/schemas/${body}`, path);
    }
    const upload = doc.paths['/api/v1/import']!.post as { requestBody: { content: Record<string, unknown> } };
    assert.deepEqual(Object.keys(upload.requestBody.content), ['multipart/form-data']);
  });

  it('checked the JSON responses this file received against the document', () => {
    assert.ok(t.responseCheck.checked >= 2, `only ${t.responseCheck.checked} responses checked`);
    assert.deepEqual(t.responseCheck.violations, []);
  });

  it("runs the README's three-line curl example with a personal API token, as the document describes it", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /One call, as the reference shows it:\n\n```sh\n([^`]+)```/.exec(readme)?.[1];
    assert.ok(block, 'the README has the example');
    const lines = block.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    const [, method, url] = /curl -s -X (\w+) http:\/\/127\.0\.0\.1:3000(\S+) /.exec(lines[0]!)!;
    assert.match(lines[1]!, /-H "Authorization: Bearer tsr_…"/);
    const body = JSON.parse(/-d '([^']+)'/.exec(lines[2]!)![1]!);

    const api = apiClient(t.app, session.accessToken);
    const sheet = (await api.post('/api/v1/sheets', { name: 'From the README', data: [['a']] })).json();
    const created = CreatedApiTokenSchema.parse((await api.post(API_TOKENS_PATH, { name: 'readme', scope: 'read-write', expires_in_days: 1 })).json());
    const res = await t.app.inject({
      method: method as 'PATCH',
      url: url!.replace('$SHEET_ID', sheet.id),
      headers: { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().version, 2);
    assert.deepEqual((await api.get(`/api/v1/sheets/${sheet.id}`)).json().data, [['hello']]);
    // The same method and path are in the document, with a body.
    const operation = doc.paths['/api/v1/sheets/{id}/cells']?.[method!.toLowerCase()] as { requestBody?: object } | undefined;
    assert.ok(operation?.requestBody);
  });

  it('is valid JSON Schema throughout: Ajv compiles every component', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    for (const name of Object.keys(doc.components.schemas)) ajv.getSchema(`openapi#/components/schemas/${name}`);
  });
});

describe('the response check fails loudly on a response the document contradicts', () => {
  it('records a body of the wrong shape and an undeclared success status', async () => {
    const app = Fastify();
    const check = installResponseCheck(app);
    installOpenApi(app, '0.0.0');
    const Thing = z.object({ name: z.string() });
    app.get('/api/v1/things/:id', withDoc({ summary: 'A thing', tag: 'Things', responses: { 200: Thing } }), async (request) =>
      (request.params as { id: string }).id === 'bad' ? { name: 42 } : { name: 'ok' },
    );
    app.post('/api/v1/things', withDoc({ summary: 'Make a thing', tag: 'Things', responses: { 201: Thing } }), async () => ({ name: 'x' }));
    await app.ready();
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/things/good' })).statusCode, 200);
    assert.deepEqual(check.violations, []);
    await app.inject({ method: 'GET', url: '/api/v1/things/bad' });
    await app.inject({ method: 'POST', url: '/api/v1/things' });
    await app.close();
    assert.equal(check.violations.length, 2, check.violations.join('\n'));
    assert.match(check.violations[0]!, /^GET \/api\/v1\/things\/:id 200: response does not match #\/components\/schemas\/\w+: .*must be string/);
    assert.match(check.violations[1]!, /^POST \/api\/v1\/things 200: status not declared in the document$/);
  });
});

describe('the API reference page at /api/docs', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('serves the page and every file it loads from the api itself (no CDN), gzipped when asked', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<title>Tessera API reference<\/title>/);
    assert.doesNotMatch(page.body, /https?:\/\//, 'the page loads nothing from another origin');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, 'http://api.test/api/docs').pathname);
    assert.deepEqual(assets.sort(), ['/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css', '/api/docs/tessera-docs.js']);
    for (const asset of assets) {
      const plain = await t.app.inject({ method: 'GET', url: asset });
      assert.equal(plain.statusCode, 200, asset);
      assert.match(String(plain.headers['content-type']), asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      const zipped = await t.app.inject({ method: 'GET', url: asset, headers: { 'accept-encoding': 'gzip, br' } });
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      assert.equal(gunzipSync(zipped.rawPayload).toString('utf8'), plain.body, asset);
    }
    const bundle = await t.app.inject({ method: 'GET', url: '/api/docs/swagger-ui-bundle.js' });
    assert.match(bundle.body, /SwaggerUIBundle/);
    const init = await t.app.inject({ method: 'GET', url: '/api/docs/tessera-docs.js' });
    // The page reads this api's document, and never sends it to the online validator.
    assert.match(init.body, /new URL\('v1\/openapi\.json', location\.href\)/);
    assert.match(init.body, /validatorUrl: null/);
    assert.equal(new URL('v1/openapi.json', 'http://api.test/api/docs').pathname, '/api/v1/openapi.json');
  });

  it('serves nothing else under /api/docs', async () => {
    for (const url of ['/api/docs/package.json', '/api/docs/..%2F..%2Fpackage.json', '/api/docs/swagger-ui-bundle.js.map', '/api/docs/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().error.code, 'not_found', url);
    }
  });
});

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { openApiPath } from '../../src/openapi/openapi-document.js';

/** Bodies past this are not parsed again here (a few tests send sheets of many MB). */
const MAX_CHECKED_BYTES = 8 * 1024 * 1024;

export interface ResponseCheck {
  /** Every response that did not match the document, as 'GET /api/v1/x 200: why'. */
  violations: string[];
  /** How many responses were checked against a declared schema (a test's sanity check). */
  checked: number;
}

/**
 * A test-only onSend hook: every JSON response of a documented /api/v1 route must validate
 * against the schema the OpenAPI document gives for its status (4xx/5xx: the error body), with
 * Ajv on the document's own JSON Schema. A success status the route does not declare is a
 * violation too. Installed by createTestApp for the whole suite; failures are printed at once
 * and fail the test file when its app closes.
 */
export function installResponseCheck(app: FastifyInstance): ResponseCheck {
  const state: ResponseCheck = { violations: [], checked: 0 };
  let ajv: Ajv2020 | undefined;
  const validators = new Map<string, ValidateFunction>();

  const validatorFor = (ref: string): ValidateFunction => {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allErrors: false });
      addFormats.default(ajv);
      ajv.addFormat('binary', true);
      ajv.addSchema({ $id: 'openapi', components: app.openApiDocument().components });
    }
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi${ref}` });
      validators.set(ref, validate);
    }
    return validate;
  };

  app.addHook('onSend', async (request, reply, payload) => {
    const { url } = request.routeOptions;
    const method = request.method;
    // HEAD (Fastify's automatic twin of each GET) sends no body; the document lists the GET.
    if (!url?.startsWith('/api/v1/') || request.method === 'HEAD') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const operation = app.openApiDocument().paths[openApiPath(url).path]?.[method.toLowerCase()] as
      | { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> }
      | undefined;
    const where = `${method} ${url} ${reply.statusCode}`;
    if (!operation) {
      state.violations.push(`${where}: the route is missing from the OpenAPI document`);
      return payload;
    }
    const declared = operation.responses[String(reply.statusCode)];
    const documented = request.routeOptions.config.openapi !== undefined;
    if (!declared && reply.statusCode < 400) {
      if (documented) state.violations.push(`${where}: status not declared in the document`);
      return payload;
    }
    if (!type.startsWith('application/json')) {
      if (declared && !declared.content?.[type.split(';')[0]!.trim()] && declared.content)
        state.violations.push(`${where}: content type ${type} not declared`);
      return payload;
    }
    const response = declared ?? operation.responses.default!;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      state.violations.push(`${where}: a JSON body where the document declares none`);
      return payload;
    }
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    if (text === undefined || text.length > MAX_CHECKED_BYTES) return payload;
    const validate = validatorFor(schema.$ref);
    state.checked++;
    if (!validate(JSON.parse(text))) {
      const message = `${where}: response does not match ${schema.$ref}: ${JSON.stringify(validate.errors?.slice(0, 3))} body ${text.slice(0, 300)}`;
      state.violations.push(message);
      console.error(`OpenAPI response check: ${message}`);
    }
    return payload;
  });
  return state;
}

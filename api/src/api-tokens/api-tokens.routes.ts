import {
  API_TOKEN_TEXTS,
  type ApiTokenList,
  ApiTokenIdParamsSchema,
  ApiTokenListSchema,
  ApiTokenSchema,
  CreatedApiTokenSchema,
  CreateApiTokenBodySchema,
  ERROR_CODES,
} from '@tessera/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { ServicesOptions } from '../services.js';
import { withDoc } from '../openapi/route-doc.js';

/**
 * A token may not make or revoke tokens: a leaked token could otherwise renew itself for ever, or
 * lock its owner's other scripts out. Listing stays open to read tokens (it shows no secrets).
 */
function refuseApiToken(request: FastifyRequest): void {
  if (request.apiToken) throw HttpError.forbidden(API_TOKEN_TEXTS.noTokenManagement);
}

/** Personal API tokens under /api/v1/auth/api-tokens (API_TOKENS_PATH): one's own only. */
export const apiTokensRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.post('/', withDoc({ summary: 'Create a personal API token (shown once)', tag: 'API tokens', body: CreateApiTokenBodySchema, responses: { 201: CreatedApiTokenSchema } }), async (request, reply) => {
    const me = currentUser(request);
    refuseApiToken(request);
    const body = validate(CreateApiTokenBodySchema, request.body);
    return reply.code(201).send(await services.apiTokens.create(me.id, body));
  });

  app.get('/', withDoc({ summary: 'One\'s API tokens (no secrets)', tag: 'API tokens', responses: { 200: ApiTokenListSchema } }), async (request): Promise<ApiTokenList> => ({ tokens: await services.apiTokens.list(currentUser(request).id) }));

  app.delete('/:id', withDoc({ summary: 'Revoke an API token', tag: 'API tokens', params: ApiTokenIdParamsSchema, responses: { 200: ApiTokenSchema } }), async (request) => {
    const me = currentUser(request);
    refuseApiToken(request);
    const params = ApiTokenIdParamsSchema.safeParse(request.params);
    if (!params.success) throw new HttpError(404, ERROR_CODES.notFound, API_TOKEN_TEXTS.notFound);
    const revoked = await services.apiTokens.revoke(me.id, params.data.id);
    // Its open live sockets close now, in every api process (live/socket-sessions.ts).
    services.tokenEpochs.changed(me.id);
    return revoked;
  });
};

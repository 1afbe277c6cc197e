import {
  ERROR_CODES,
  SessionResponseSchema,
  type SignInOptions,
  SignInOptionsSchema,
  SsoCallbackBodySchema,
  type SsoStartResponse,
  SsoStartResponseSchema,
  SSO_TEXTS,
} from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { startSession } from '../auth/session.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import { withDoc } from '../openapi/route-doc.js';
import type { ServicesOptions } from '../services.js';
import { clearPendingCookie, readPendingCookie, setPendingCookie } from './pending-sign-in-cookie.js';

/**
 * Under /api/v1/auth: which ways to sign in are on, and the two steps of single sign-on. All
 * public (nobody is signed in yet); registered whether or not SSO is configured, so the route
 * sweeps see them, and answering 404 when it is not.
 */
export const oidcRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  const { oidc, config } = services;
  const notConfigured = () => new HttpError(404, ERROR_CODES.notFound, SSO_TEXTS.notConfigured);

  const doc = (summary: string, rest: Omit<Parameters<typeof withDoc>[0], 'summary' | 'tag'>) => withDoc({ summary, tag: 'Auth', ...rest }, { config: { public: true } });

  app.get('/sign-in-options', doc('The ways to sign in: password, and single sign-on with its button name', { responses: { 200: SignInOptionsSchema } }), async (): Promise<SignInOptions> => ({
    password_login: config.passwordLogin ?? true,
    sso: oidc ? { name: oidc.config.name } : null,
  }));

  // POST, not a GET link: the page shows a provider that is down as an error instead of leaving.
  app.post('/oidc/start', doc("Single sign-on, step 1: the provider's authorization URL (and the pending sign-in cookie)", { responses: { 200: SsoStartResponseSchema } }), async (request, reply): Promise<SsoStartResponse> => {
    if (!oidc) throw notConfigured();
    const { url, pending } = await oidc.start(request);
    setPendingCookie(request, reply, pending, config.cookieSecure);
    return { authorization_url: url };
  });

  app.post('/oidc/callback', doc("Single sign-on, step 2: the provider's reply in, a session out (as a password sign-in)", { body: SsoCallbackBodySchema, responses: { 200: SessionResponseSchema } }), async (request, reply) => {
    if (!oidc) throw notConfigured();
    const body = validate(SsoCallbackBodySchema, request.body);
    const pending = readPendingCookie(request);
    // One use: a replayed or failed reply never finds it again.
    clearPendingCookie(request, reply, config.cookieSecure);
    if (!pending) throw HttpError.badRequest(SSO_TEXTS.noPendingSignIn);
    const user = await oidc.finish(body.query, pending, request.log);
    return startSession(services, request, reply, user);
  });
};

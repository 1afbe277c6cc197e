import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { changePasswordRoute } from './change-password.route.js';
import { jwksRoute } from './jwks.route.js';
import { loginRoute } from './login.route.js';
import { logoutRoute } from './logout.route.js';
import { refreshRoute } from './refresh.route.js';
import { sessionRoute } from './session.route.js';
import { signupRoute } from './signup.route.js';
import { statusRoute } from './status.route.js';

/** Everything under /api/v1/auth. */
export const authRoutes: FastifyPluginAsync<ServicesOptions> = async (app, opts) => {
  for (const route of [statusRoute, signupRoute, loginRoute, refreshRoute, logoutRoute, changePasswordRoute, jwksRoute, sessionRoute]) {
    await app.register(route, { services: opts.services });
  }
};

import type { User } from '@tessera/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ServicesOptions } from '../services.js';
import { toPublicUser } from './user.mapper.js';

/** GET /api/v1/users: every member, for any signed-in user; never a password or hash. */
export const usersRoute: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/', async (): Promise<User[]> => (await services.users.list()).map(toPublicUser));
};

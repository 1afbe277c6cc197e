import { ACTIVITY_TEXTS, ActivityPageSchema, ActivityQuerySchema, GitRevertActivityBodySchema, GitRevertActivityResultSchema, isAdminLike } from '@tessera/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { currentUser } from '../http/auth-guard.js';
import { HttpError } from '../http/http-error.js';
import { validate } from '../http/validate.js';
import type { AppServices, ServicesOptions } from '../services.js';
import type { Actor } from './activity-log.js';
import { withDoc } from '../openapi/route-doc.js';

/** The actor of an activity entry: the signed-in member and the address the request came from. */
export function actorOf(request: FastifyRequest): Actor {
  return { user: currentUser(request), address: request.ip ?? null };
}

/** A sheet as an activity entry names it (its name now). */
export async function sheetItem(services: AppServices, id: string) {
  const row = await services.db.selectFrom('sheets').select('name').where('id', '=', id).executeTakeFirst();
  return { type: 'sheet' as const, id, name: row?.name ?? '' };
}

/** {api}/activity: the activity log, for admins (newest first, filtered, paged). */
export const activityRoutes: FastifyPluginAsync<ServicesOptions> = async (app, { services }) => {
  app.get('/', withDoc({ summary: 'The activity log (admins)', tag: 'Activity', query: ActivityQuerySchema, responses: { 200: ActivityPageSchema } }), async (request) => {
    if (!isAdminLike(currentUser(request).role)) throw HttpError.forbidden(ACTIVITY_TEXTS.adminsOnly);
    return services.activity.page(validate(ActivityQuerySchema, request.query));
  });

  // The git repository lives in the ai-middleware: it records each revert here with the member's
  // token once the revert is committed (two services: no shared transaction). An entry names the
  // token's member only, so a member can add nothing under another's name.
  app.post('/git-revert', withDoc({ summary: 'Record a git revert (the ai-middleware calls this)', tag: 'Activity', body: GitRevertActivityBodySchema, responses: { 201: GitRevertActivityResultSchema } }), async (request, reply) => {
    const body = validate(GitRevertActivityBodySchema, request.body);
    await services.activity.append(actorOf(request), { kind: 'git_reverted', item: null, detail: body });
    return reply.code(201).send({ status: 'recorded' });
  });
};

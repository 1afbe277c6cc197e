import type { AccessLevel, AccessNeed } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AccessService } from './access.service.js';

/** What a route on one item needs: the item's type, the level, and the path parameter naming it (default `id`). */
export interface AccessRule {
  item: 'sheet' | 'group';
  need: AccessNeed;
  param?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The level the caller needs on the item the route names; checked before the handler runs. */
    access?: AccessRule;
  }
  interface FastifyRequest {
    /** The caller's level on the route's item, once the access guard checked it. */
    accessLevel: AccessLevel | null;
  }
}

const Uuid = z.uuid();

/**
 * Installed on the root instance (like the auth guard), so every route that declares
 * `config.access` is checked on the server before its handler: 404 when the caller has no
 * access, 403 when their level is too low. An id that is not a uuid is left to the route's own
 * validation (400).
 */
export function installAccessGuard(app: FastifyInstance, access: AccessService): void {
  app.decorateRequest('accessLevel', null);
  app.addHook('preHandler', async (request) => {
    const rule = request.routeOptions.config.access;
    if (!rule || !request.user) return;
    const id = (request.params as Record<string, string | undefined>)[rule.param ?? 'id'];
    if (!Uuid.safeParse(id).success) return;
    request.accessLevel = await access.require(request.user, { type: rule.item, id: id! }, rule.need);
  });
}

/** Route options declaring the level a route needs on its sheet (`:id`). */
export const onSheet = (need: AccessNeed) => ({ config: { access: { item: 'sheet', need } satisfies AccessRule } });
/** Route options declaring the level a route needs on its group (`:id`). */
export const onGroup = (need: AccessNeed) => ({ config: { access: { item: 'group', need } satisfies AccessRule } });

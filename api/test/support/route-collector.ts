import type { HTTPMethods, RouteOptions } from 'fastify';
import type { AccessRule } from '../../src/access/access-guard.js';

export interface CollectedRoute {
  method: string;
  url: string;
  public: boolean;
  /** The level the route declares it needs on its item (checked by the access guard). */
  access?: AccessRule;
}

/**
 * An onRoute hook for buildApp that records every route the app registers, installed
 * before the first route, so none is missed.
 */
export function routeCollector(): { routes: CollectedRoute[]; onRoute: (route: RouteOptions) => void } {
  const routes: CollectedRoute[] = [];
  const onRoute = (route: RouteOptions) => {
    const methods: HTTPMethods[] = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      routes.push({ method, url: route.url, public: route.config?.public === true, ...(route.config?.access ? { access: route.config.access } : {}) });
    }
  };
  return { routes, onRoute };
}

/** A concrete URL for a route pattern: every parameter and wildcard filled with a plausible id. */
export function concreteUrl(pattern: string): string {
  return pattern
    .replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, '00000000-0000-4000-8000-000000000000')
    .replace(/\*/g, 'x');
}

/**
 * What the sandbox answers to a request no route takes: the endpoint the merchant most likely
 * meant (a trailing slash added or missing, a path prefix such as `/v1` in `baseUrl`), or the
 * methods a known path takes.
 *
 * @module
 */

import { endpointPaths } from '../internal/endpoints.js';

interface Endpoint {
  readonly path: string;
  readonly name: string;
  readonly plural: string;
}

const ENDPOINTS: readonly Endpoint[] = [
  { path: `/${endpointPaths.payment}`, name: 'payment', plural: 'card and mobile-money payments' },
  { path: `/${endpointPaths.checkoutSession}`, name: 'checkout session', plural: 'checkout sessions' },
  { path: `/${endpointPaths.payout}`, name: 'payout', plural: 'payouts' },
];

const CHECKOUT_PAGE = /^\/checkout\/[^/]+$/;

const withoutTrailingSlash = (path: string): string => path.replace(/\/+$/, '');

/** The methods `path` takes, when it is one the sandbox serves; undefined otherwise. */
export function allowedMethods(path: string): string | undefined {
  if (ENDPOINTS.some((endpoint) => endpoint.path === path)) return 'POST';
  return CHECKOUT_PAGE.test(path) ? 'GET, POST' : undefined;
}

/** The 405 message for a known path asked with another method. */
export function wrongMethodMessage(method: string, path: string, allow: string): string {
  return `${path} takes ${allow.replace(', ', ' or ')}, not ${method}.`;
}

/** The 404 message: the path asked, then the endpoint it most likely meant, or all of them. */
export function notFoundMessage(method: string, path: string): string {
  const asked = `No sandbox endpoint at ${method} ${path}`;
  const bare = withoutTrailingSlash(path);
  for (const endpoint of ENDPOINTS) {
    const target = withoutTrailingSlash(endpoint.path);
    const slash = endpoint.path.endsWith('/') ? 'with' : 'without';
    if (bare === target) {
      return `${asked}: the ${endpoint.name} endpoint is POST ${endpoint.path}, ${slash} a trailing slash.`;
    }
    if (bare.endsWith(target)) {
      const prefix = bare.slice(0, bare.length - target.length);
      return `${asked}: the ${endpoint.name} endpoint is POST ${endpoint.path}, at the root of the sandbox; drop ${prefix} from the client's baseUrl.`;
    }
  }
  const list = ENDPOINTS.map((endpoint) => `POST ${endpoint.path} (${endpoint.plural})`);
  return `${asked}: the endpoints are ${list.slice(0, -1).join(', ')} and ${list.at(-1)}.`;
}

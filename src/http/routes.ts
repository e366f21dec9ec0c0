/** Where operations are answered: their paths under /v1 and /api/v1, static routes before parameterised ones. */
import { pathParams, type Operation } from '../engine/operation.js';

export const prefixes = ['/v1', '/api/v1'] as const;

/** `{id}` placeholders to polka's `:id`. */
export const routeOf = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** Static routes before parameterised ones, so /api-keys/scopes is not read as /api-keys/{id}. */
export function routeOrder(a: Operation, b: Operation): number {
  return pathParams(a.path).length - pathParams(b.path).length || a.path.localeCompare(b.path);
}

/**
 * The currency rule the wire schemas leave to the sandbox: they check the wire format (3 upper-case
 * letters), the sandbox also wants a code of the ISO 4217 list, as the client's builders do.
 *
 * @module
 */

import type { ValidationIssue } from '../errors.js';
import { checkCurrency } from '../validation/currency.js';

/**
 * The issue of a currency at `path` in `body` in the wire format but not an ISO 4217 code (where
 * `Intl` knows the list), else none: a missing or malformed currency is the schema's to report.
 */
export function currencyIssues(body: unknown, path: readonly [string, 'currency']): ValidationIssue[] {
  const parent = (body as Record<string, unknown> | null)?.[path[0]];
  const value =
    typeof parent === 'object' && parent !== null ? (parent as { currency?: unknown }).currency : undefined;
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value)) return [];
  const result = checkCurrency(value);
  if (result.ok) return [];
  // The builders' words, without the value they quote: a sandbox answer names fields, never values.
  return [{ path: [...path], code: result.code, message: result.message.replace(/, got .*$/, '') }];
}

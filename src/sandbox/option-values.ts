/**
 * The values the sandbox's options may take, checked once where a sandbox is made: a value of the
 * wrong type is a `TypeError`, a number out of its range a `RangeError`, each naming the option
 * and the entry the merchant called (`startSandbox: walletBalance must be …`). The CLI's `sandbox`
 * flags read the same ranges.
 *
 * @module
 */

import { checkHttpUrl } from '../validation/url.js';
import { MAX_TIMER_MS } from '../internal/timers.js';
import { kindOf, wholeNumberOption } from '../internal/whole-number.js';
import { isMethodWordValue } from '../validation/method.js';
import { checkBrand } from './payload-values.js';

/** The whole-number options and their ranges, inclusive. */
export const SANDBOX_NUMBER_RANGES = Object.freeze({
  callbackDelayMs: [0, MAX_TIMER_MS],
  walletBalance: [0, Number.MAX_SAFE_INTEGER],
  payoutFee: [0, Number.MAX_SAFE_INTEGER],
  deliveryRetries: [0, Number.MAX_SAFE_INTEGER],
  retryDelayMs: [0, MAX_TIMER_MS],
  deliveryTimeoutMs: [1, MAX_TIMER_MS],
  duplicateDeliveries: [0, 10],
} as const satisfies Record<string, readonly [number, number]>);

/** `undefined`, or a method word ({@link isMethodWordValue}); else a `TypeError` naming the option. */
function checkWord(where: string, name: string, value: unknown, example: string): void {
  if (value !== undefined && !isMethodWordValue(value)) {
    throw new TypeError(
      `${where}: ${name} must be a non-empty string without blanks around it or a control or invisible character, e.g. ${example}, got ${kindOf(value)}`,
    );
  }
}

/** `undefined`, or a function; else a `TypeError` naming the option. */
function checkFunction(where: string, name: string, value: unknown, also = ''): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`${where}: ${name} must be ${also}a function, got ${kindOf(value)}`);
  }
}

/**
 * An absolute http(s) URL without user info, query or fragment (a base the sandbox prefixes paths
 * with); else a `TypeError` naming the option. Never quotes the URL: it may carry a password.
 */
export function checkBaseUrlOption(where: string, name: string, value: unknown): string {
  const checked = checkHttpUrl(value);
  if (!checked.ok) throw new TypeError(`${where}: ${name} ${checked.message}`);
  if (/[?#]/.test(checked.value)) {
    throw new TypeError(`${where}: ${name} expected a base URL without a query string or fragment`);
  }
  return checked.value;
}

/** The behaviour options a sandbox state is made from, as they arrive from the merchant. */
interface UncheckedOptions {
  readonly [name: string]: unknown;
}

/**
 * Throws for the first behaviour option (and `publicUrl`, `transport`) whose value the sandbox
 * cannot run with, naming it; passes `undefined` (the default) for each.
 */
export function checkSandboxOptionValues(where: string, options: UncheckedOptions): void {
  for (const name of Object.keys(SANDBOX_NUMBER_RANGES) as (keyof typeof SANDBOX_NUMBER_RANGES)[]) {
    if (name === 'duplicateDeliveries' && typeof options[name] === 'boolean') continue;
    if (name === 'duplicateDeliveries' && typeof options[name] !== 'number' && options[name] !== undefined) {
      throw new TypeError(
        `${where}: duplicateDeliveries must be true, false or a whole number from 0 to 10, got ${kindOf(options[name])}`,
      );
    }
    const [min, max] = SANDBOX_NUMBER_RANGES[name];
    wholeNumberOption(where, name, options[name], min, { min, max });
  }
  const { failureRate } = options;
  if (failureRate !== undefined) {
    const rule = `${where}: failureRate must be a probability from 0 to 1, e.g. 0.2`;
    if (typeof failureRate !== 'number') throw new TypeError(`${rule}, got ${kindOf(failureRate)}`);
    if (!(failureRate >= 0 && failureRate <= 1)) throw new RangeError(`${rule}, got ${String(failureRate)}`);
  }
  checkWord(where, 'mobileMoneyBrand', options.mobileMoneyBrand, "'M-PESA'");
  if (options.mobileMoneyBrand !== undefined && !checkBrand(options.mobileMoneyBrand).ok) {
    throw new TypeError(
      `${where}: mobileMoneyBrand must be a mobile-money brand word such as 'M-PESA', not the card method word`,
    );
  }
  checkWord(where, 'cardPaymentMethod', options.cardPaymentMethod, "'CARD'");
  checkFunction(where, 'random', options.random);
  if (typeof options.log === 'string') {
    throw new TypeError(
      `${where}: log must be false or a logger, got a string; for a format, give createSandboxLogger('json') or createSandboxLogger('pretty')`,
    );
  }
  if (options.log !== false) {
    checkFunction(where, 'log', options.log, "false or a logger (createSandboxLogger('pretty')), ");
  }
  checkFunction(where, 'transport', options.transport);
  if (options.publicUrl !== undefined) checkBaseUrlOption(where, 'publicUrl', options.publicUrl);
}

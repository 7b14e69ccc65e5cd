/**
 * `hosted-payments trigger <event-type> --url <callback-url>`: posts a fixture callback, signed
 * like your app signs its callback URLs, and prints what the route answered.
 *
 * @module
 */

import { Option, type Command } from 'commander';
import { callbackEventTypes, type CallbackEventType } from '../callbacks/events.js';
import { secretProblem, signCallbackUrl } from '../callbacks/signing.js';
import { blockedPortMessage, refusalReason } from '../sandbox/delivery.js';
import { escapeForLog, urlForLog } from '../sandbox/log.js';
import {
  checkBrand,
  checkCurrency,
  checkPayloadAmount,
  checkPayloadReference,
  isCallbackEventType,
  unknownEventTypeMessage,
} from '../sandbox/payload-values.js';
import {
  buildCallbackPayload,
  callbackPayloadOptions,
  DEFAULT_MOBILE_MONEY_BRAND,
} from '../sandbox/payloads.js';
import { checkWholeNumber } from '../validation/money.js';
import { checkHttpUrl } from '../validation/url.js';
import { answerExcerpt } from '../sandbox/answer-excerpt.js';
import { HANDLER_FAILED_CAUSE } from '../sandbox/report.js';
import type { CliIo } from './io.js';
import { integer } from './sandbox-command.js';

/** The environment variable `trigger` reads the webhook secret from (out of `ps` and shell history). */
export const SECRET_ENV = 'HOSTED_PAYMENTS_WEBHOOK_SECRET';

/** The reference each event type carries when `--reference` is not given. */
const defaultReference = (type: CallbackEventType): string =>
  type.startsWith('payout.') ? '123456789012' : type.startsWith('checkout.') ? '1001' : 'ORDER-1001';

const REFERENCE_HELP = [
  'merchant reference signed into the URL and written into the payload where it has a field for it;',
  'default: ORDER-1001 for payment.* (transaction_reference of payment.mobile_money.failed; the card and',
  'mobile-money success payloads carry none), 1001 for checkout.* (order_id, a whole number), 123456789012 for payout.*',
  '(reference_id, 12 digits)',
].join(' ');

interface TriggerFlags {
  url: string;
  secret?: string | undefined;
  reference?: string | undefined;
  amount: string;
  currency: string;
  brand: string;
  repeat: number;
  timeout: number;
}

type Outcome = { code: 0 | 1 | 2; error?: string };

/** Said after a 401 to a URL posted unsigned: a route that checks signatures refuses it. */
const UNSIGNED_HINT =
  `the URL was posted unsigned (neither --secret nor $${SECRET_ENV} is set), and a route that ` +
  `checks signatures answers 401; export ${SECRET_ENV}=<your webhook secret> (or pass --secret) and run it again`;

/** Said after a 2xx to an unsigned post: a route that verifies signatures answers 401. */
const UNSIGNED_ACCEPTED =
  `the URL was posted unsigned (neither --secret nor $${SECRET_ENV} is set), and the route accepted it: ` +
  `a route that verifies signatures answers 401, so this one would take a forged "paid" too (check that it is createCallbackHandler's, with your secret)`;

/** Said after a 401 `invalid_signature` to a signed URL; names where the secret came from, never the secret. */
const wrongSecretHint = (source: string): string =>
  `the route refused the signature (401 invalid_signature): the secret from ${source} may not be ` +
  `the route's; give the webhook secret the route verifies with`;

/** Said after a 404 or 405: the route is not at that path, or not for POST. */
function notServedHint(status: number, url: string): string {
  const path = escapeForLog(new URL(url).pathname);
  return status === 404
    ? `the server answered 404 for ${path}: the path may be wrong; give --url the path your webhook route is mounted at (a trailing slash counts)`
    : `the server answered 405 for ${path}: something is there, but not for POST; callbacks are POSTed, so mount the route for POST`;
}

/** Said after a 3xx: the service posts to the URL it was given and follows no redirect. */
function redirectHint(status: number, location: string | null, posted: string): string {
  let to = '';
  try {
    if (location !== null) to = ` to ${escapeForLog(urlForLog(new URL(location, posted).href))}`;
  } catch {
    // A Location that is no URL: the redirect is said without it.
  }
  return `the route answered ${status}, a redirect${to} (not followed: a redirect does not carry the POST, and the service posts to the URL it was given); give --url the URL the route answers at`;
}

/** Posts as the service does: no redirect followed, and no longer than `timeoutMs`. */
async function post(
  io: CliIo,
  url: string,
  body: string,
  timeoutMs: number,
): Promise<Response | { error: string }> {
  try {
    return await (io.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'hosted-payments-cli' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if ((error as { name?: unknown }).name === 'TimeoutError') {
      return { error: `no answer from ${new URL(url).origin} within ${timeoutMs} ms (--timeout)` };
    }
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why =
      typeof cause?.code === 'string'
        ? escapeForLog(cause.code)
        : cause?.message === 'bad port'
          ? blockedPortMessage(url)
          : escapeForLog(withoutUrls((error as Error).message));
    return { error: `could not reach ${new URL(url).origin}: ${why}` };
  }
}

/** `text` with every URL in it shown as the sandbox log shows one: no query (the signature), no password. */
const withoutUrls = (text: string): string =>
  text.replace(/\b[a-z][a-z\d+.-]*:\/\/[^\s'"<>]+/gi, (url) => urlForLog(url));

/**
 * The secret to sign with and where it came from, undefined when neither `--secret` nor the
 * environment variable is set (the URL is then posted unsigned, as documented); an empty or short
 * one is an error naming its source, never quoting it.
 */
function secretOf(io: CliIo, flags: TriggerFlags): { secret?: string; source?: string; error?: string } {
  const fromEnv = flags.secret === undefined;
  const secret = fromEnv ? (io.env ?? process.env)[SECRET_ENV] : flags.secret;
  const source = fromEnv ? `$${SECRET_ENV}` : '--secret';
  if (secret === undefined) return {};
  if (secret === '') {
    return {
      error: `${source} is empty; give your webhook secret, or leave out both --secret and $${SECRET_ENV} to post unsigned`,
    };
  }
  const problem = secretProblem(secret);
  if (problem !== undefined) return { error: `${source} ${problem}` };
  return { secret, source };
}

/**
 * Posts the delivery and says how it went. `given(flag)` is true for a flag typed on the command
 * line (not its default): `--currency` and `--brand` are refused where the payload has no place
 * for them.
 */
async function trigger(
  io: CliIo,
  type: string,
  flags: TriggerFlags,
  given: (flag: 'currency' | 'brand') => boolean,
): Promise<Outcome> {
  if (!isCallbackEventType(type)) return { code: 2, error: unknownEventTypeMessage(type) };
  const reference = checkPayloadReference(type, flags.reference ?? defaultReference(type));
  if (!reference.ok) return { code: 2, error: `--reference: ${reference.message}` };
  const positive = checkWholeNumber(flags.amount, 1);
  const amount = positive.ok ? checkPayloadAmount(type, positive.value) : positive;
  if (!amount.ok) return { code: 2, error: `--amount: ${amount.message}` };
  for (const flag of ['currency', 'brand'] as const) {
    if (given(flag) && !callbackPayloadOptions[type].includes(flag)) {
      return { code: 2, error: `--${flag}: a ${type} payload has no place for it; leave it out` };
    }
  }
  const currency = checkCurrency(flags.currency);
  if (!currency.ok) return { code: 2, error: `--currency: ${currency.message}` };
  const brand = checkBrand(flags.brand);
  if (!brand.ok) return { code: 2, error: `--brand: ${brand.message}` };
  const target = checkHttpUrl(flags.url);
  if (!target.ok) return { code: 2, error: `--url: ${target.message}` };
  const signing = secretOf(io, flags);
  if (signing.error !== undefined) return { code: 2, error: signing.error };
  const { secret, source } = signing;
  let url: string;
  try {
    url =
      secret === undefined
        ? target.value
        : await signCallbackUrl(target.value, { secret, reference: reference.value });
  } catch (error) {
    // The checks above leave only the reference (well-formed Unicode) for signCallbackUrl to refuse.
    return { code: 2, error: `--reference: ${error instanceof Error ? error.message : String(error)}` };
  }
  // The payload gets the currency and brand where it has a place for them (defaults included).
  const carries = callbackPayloadOptions[type];
  const payload = buildCallbackPayload(type, {
    amount: amount.value,
    reference: reference.value,
    ...(carries.includes('currency') && { currency: currency.value }),
    ...(carries.includes('brand') && { brand: brand.value }),
  });
  const body = JSON.stringify(payload);
  let allAccepted = true;
  let anyAccepted = false;
  let refused401 = false;
  let refusedSignature = false;
  let handlerFailed = false;
  let notServed: number | undefined;
  let redirected: string | undefined;
  const signature = new URL(url).searchParams.get('hp_sig') ?? '';
  for (let n = 1; n <= flags.repeat; n++) {
    const response = await post(io, url, body, flags.timeout);
    if ('error' in response) return { code: 1, error: response.error };
    const raw = await response.text();
    const text = answerExcerpt(raw, response.headers.get('content-type'), [signature, secret ?? '']);
    const copy = flags.repeat > 1 ? ` [${n}/${flags.repeat}]` : '';
    const duplicate = response.headers.get('x-callback-duplicate') === 'true' ? ' (duplicate)' : '';
    io.stdout(
      `posted ${type}${copy} (reference ${escapeForLog(reference.value)}) → HTTP ${response.status} ${response.statusText}${duplicate}\n`,
    );
    if (text) io.stdout(`${text}\n`);
    allAccepted &&= response.ok;
    anyAccepted ||= response.ok;
    refused401 ||= response.status === 401;
    refusedSignature ||= response.status === 401 && refusalReason(raw) === 'invalid_signature';
    handlerFailed ||= response.status === 500 && refusalReason(raw) === 'handler_failed';
    if (response.status === 404 || response.status === 405) notServed = response.status;
    if (response.status >= 300 && response.status < 400) {
      redirected = redirectHint(response.status, response.headers.get('location'), url);
    }
  }
  if (redirected !== undefined) io.stderr(`hint: ${redirected}\n`);
  if (notServed !== undefined) io.stderr(`hint: ${notServedHint(notServed, url)}\n`);
  if (refused401 && secret === undefined) io.stderr(`hint: ${UNSIGNED_HINT}\n`);
  else if (anyAccepted && secret === undefined) io.stderr(`hint: ${UNSIGNED_ACCEPTED}\n`);
  else if (refusedSignature) io.stderr(`hint: ${wrongSecretHint(source ?? '--secret')}\n`);
  if (handlerFailed) {
    io.stderr(`hint: the route failed on the callback (500 handler_failed): ${HANDLER_FAILED_CAUSE}\n`);
  }
  return { code: allAccepted ? 0 : 1 };
}

/** Defines the `trigger` command on `command` (made by the program, so it inherits its output settings). */
export function triggerCommand(command: Command, io: CliIo, setExitCode: (code: number) => void): Command {
  return command
    .description(
      'Post a fixture callback of one event type to a callback URL and print the response status. ' +
        `The URL is signed (signCallbackUrl) with --secret or, better, the ${SECRET_ENV} environment variable.`,
    )
    .argument('<event-type>', `one of: ${callbackEventTypes.join(', ')}`)
    .requiredOption('--url <callback-url>', 'the webhook URL to post to')
    .option(
      '--secret <secret>',
      `sign the URL with this secret (default: $${SECRET_ENV}, which stays out of ps and shell history)`,
    )
    .option('--reference <reference>', REFERENCE_HELP)
    .option('--amount <amount>', 'amount in the payload, a positive whole number', '1500')
    .option('--currency <code>', 'currency in the payload, an ISO 4217 code', 'KES')
    .option('--brand <word>', 'mobile-money brand word', DEFAULT_MOBILE_MONEY_BRAND)
    .addOption(
      new Option('--repeat <n>', 'send the same delivery n times (same body, same ids), to test your dedupe')
        .argParser(integer('a count', 1, 100))
        .default(1),
    )
    .addOption(
      new Option('--timeout <ms>', 'give up on a delivery the route has not answered within this many ms')
        .argParser(integer('milliseconds', 1, 600_000))
        .default(10_000),
    )
    .action(async (type: string, flags: TriggerFlags, self: Command) => {
      const outcome = await trigger(io, type, flags, (flag) => self.getOptionValueSource(flag) !== 'default');
      if (outcome.error) io.stderr(`error: ${outcome.error}\n`);
      setExitCode(outcome.code);
    });
}

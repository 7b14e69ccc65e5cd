/**
 * `hosted-payments sandbox`: the sandbox in the foreground with a request/callback log.
 *
 * @module
 */

import { InvalidArgumentError, Option, type Command } from 'commander';
import { createSandboxLogger, type SandboxLogFormat } from '../sandbox/log.js';
import { SANDBOX_NUMBER_RANGES } from '../sandbox/option-values.js';
import { sandboxTestValues } from '../sandbox/outcomes.js';
import { checkBrand } from '../sandbox/payload-values.js';
import { DEFAULT_MOBILE_MONEY_BRAND } from '../sandbox/payloads.js';
import { startSandbox, type Sandbox } from '../sandbox/server.js';
import type { Check } from '../validation/result.js';
import type { CliIo } from './io.js';

/**
 * Default port of `hosted-payments sandbox`.
 *
 * @example
 * ```ts
 * import { PaymentsClient } from 'hosted-payments';
 *
 * new PaymentsClient({ baseUrl: 'http://127.0.0.1:4010' }); // DEFAULT_SANDBOX_PORT
 * ```
 */
export const DEFAULT_SANDBOX_PORT = 4010;

/** Parses a whole number between `min` and `max`, or says what was expected. */
export const integer = (what: string, min: number, max: number) => (value: string) => {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
    throw new InvalidArgumentError(`expected ${what} from ${min} to ${max}`);
  }
  return parsed;
};

/** Parses a flag with a payload rule, or says what it expected. */
const fromCheck =
  <T>(check: (value: string) => Check<T>) =>
  (value: string): T => {
    const result = check(value);
    if (!result.ok) throw new InvalidArgumentError(result.message);
    return result.value;
  };

const probability = (value: string) => {
  const parsed = Number(value);
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(value) || !(parsed >= 0 && parsed <= 1)) {
    throw new InvalidArgumentError('expected a probability from 0 to 1, e.g. 0.2');
  }
  return parsed;
};

interface SandboxFlags {
  port: number;
  host: string;
  callbackDelay: number;
  walletBalance: number;
  payoutFee: number;
  failureRate: number;
  duplicates: number;
  retries: number;
  retryDelay: number;
  deliveryTimeout: number;
  brand: string;
  log: SandboxLogFormat;
}

function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise<void>(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

const isLoopback = (address: string) => /^(127\.|\[::1\]:|\[::ffff:127\.)/.test(address);

function banner(sandbox: Sandbox, flags: SandboxFlags): string {
  const { cards, phones } = sandboxTestValues;
  return [
    `hosted-payments sandbox listening on ${sandbox.url} (bound to ${sandbox.address})`,
    ...(isLoopback(sandbox.address)
      ? []
      : [`  warning: bound to ${sandbox.address}: other machines on the network can reach it`]),
    `  point your client at it:  new PaymentsClient({ baseUrl: '${sandbox.url}' })`,
    `  test cards: ${cards.success} pays, ${cards.declined} is declined`,
    `  test phones: any valid number pays, ${phones.insufficientFunds} fails (406), ${phones.noCallback} never gets a callback`,
    `  wallet balance: ${flags.walletBalance}, payout fee: ${flags.payoutFee}` +
      (flags.failureRate > 0 ? `, failure rate: ${flags.failureRate}` : ''),
    '  Ctrl-C to stop',
    '',
  ].join('\n');
}

/**
 * `startSandbox`'s listen error said in flags: the port or host to change is `--port` or `--host`.
 * An error without a system code is returned as it came.
 */
function inFlags(error: unknown, flags: SandboxFlags): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const message =
    code === 'EADDRINUSE'
      ? `port ${flags.port} is in use on ${flags.host} (${code}); give another with --port <port>, or --port 0 for a free one`
      : code === 'EACCES'
        ? `port ${flags.port} needs privileges this process does not have (${code}); give --port above 1023, or --port 0`
        : `cannot listen on host ${flags.host} (${code}); give --host an address of this machine, such as 127.0.0.1`;
  return Object.assign(new Error(message, { cause: error }), { code });
}

async function runSandbox(io: CliIo, flags: SandboxFlags): Promise<void> {
  const logger = createSandboxLogger(flags.log, (line) => io.stdout(line));
  const sandbox = await startSandbox({
    port: flags.port,
    host: flags.host,
    callbackDelayMs: flags.callbackDelay,
    walletBalance: flags.walletBalance,
    payoutFee: flags.payoutFee,
    failureRate: flags.failureRate,
    duplicateDeliveries: flags.duplicates,
    deliveryRetries: flags.retries,
    retryDelayMs: flags.retryDelay,
    deliveryTimeoutMs: flags.deliveryTimeout,
    mobileMoneyBrand: flags.brand,
    // The pretty banner says what the listening event would.
    log: (event) => {
      if (event.kind !== 'listening' || flags.log === 'json') logger(event);
    },
  }).catch((error: unknown) => {
    throw inFlags(error, flags);
  });
  if (flags.log === 'pretty') io.stdout(banner(sandbox, flags));
  io.onListening?.(sandbox.url);
  await waitForAbort(io.signal);
  await sandbox.close();
  if (flags.log === 'pretty') io.stdout('sandbox stopped\n');
}

/** Defines the `sandbox` command on `command` (made by the program, so it inherits its output settings). */
export function sandboxCommand(command: Command, io: CliIo): Command {
  return command
    .description(
      'Run the sandbox in the foreground: the four endpoints, the hosted checkout page and callbacks ' +
        'delivered with retries, with a request/callback log. Stop with Ctrl-C.',
    )
    .addOption(
      new Option('-p, --port <port>', 'port to listen on (0 = any free port)')
        .argParser(integer('a port', 0, 65535))
        .default(DEFAULT_SANDBOX_PORT),
    )
    .option('--host <host>', 'interface to bind (0.0.0.0 = every interface)', '127.0.0.1')
    .addOption(
      new Option('--callback-delay <ms>', 'wait before delivering each callback, in ms')
        .argParser(integer('milliseconds', 0, 600_000))
        .default(200),
    )
    .addOption(
      new Option('--wallet-balance <amount>', 'starting wallet balance for payouts')
        .argParser(integer('an amount', ...SANDBOX_NUMBER_RANGES.walletBalance))
        .default(sandboxTestValues.walletBalance),
    )
    .addOption(
      new Option('--payout-fee <amount>', 'fee charged on each payout')
        .argParser(integer('an amount', ...SANDBOX_NUMBER_RANGES.payoutFee))
        .default(sandboxTestValues.payoutFee),
    )
    .addOption(
      new Option(
        '--failure-rate <p>',
        `probability (0-1) that a payment that would succeed fails anyway (${sandboxTestValues.phones.noCallback} still gets no callback)`,
      )
        .argParser(probability)
        .default(0),
    )
    .addOption(
      new Option('--duplicates <n>', 'deliver every callback n more times, to test idempotency')
        .argParser(integer('a count', ...SANDBOX_NUMBER_RANGES.duplicateDeliveries))
        .default(0),
    )
    .addOption(
      new Option('--retries <n>', 'attempts after the first for a callback the route does not accept')
        .argParser(integer('a count', 0, 100))
        .default(5),
    )
    .addOption(
      new Option('--retry-delay <ms>', 'wait before the first retry, in ms; doubled for each next one')
        .argParser(integer('milliseconds', ...SANDBOX_NUMBER_RANGES.retryDelayMs))
        .default(500),
    )
    .addOption(
      new Option(
        '--delivery-timeout <ms>',
        'give up on an attempt the route has not answered within this many ms',
      )
        .argParser(integer('milliseconds', ...SANDBOX_NUMBER_RANGES.deliveryTimeoutMs))
        .default(10_000),
    )
    .addOption(
      new Option('--brand <word>', 'mobile-money brand word in payloads, e.g. M-PESA')
        .argParser(fromCheck(checkBrand))
        .default(DEFAULT_MOBILE_MONEY_BRAND),
    )
    .addOption(
      new Option(
        '--log <format>',
        'log format: one readable line per event, one JSON object per line, or nothing',
      )
        .choices(['pretty', 'json', 'silent'])
        .default('pretty'),
    )
    .action((flags: SandboxFlags) => runSandbox(io, flags));
}

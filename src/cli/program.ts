/**
 * The `hosted-payments` command line: `sandbox` (run the sandbox in the foreground with a
 * request/callback log) and `trigger <event-type> --url <callback-url>` (post a fixture callback,
 * like a payment provider's own CLI). `run(argv, io)` is the whole program, testable in-process;
 * `src/cli.ts` only wires it to `process`.
 *
 * @module
 */

import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { callbackEventTypes } from '../callbacks/events.js';
import { signCallbackUrl } from '../callbacks/signing.js';
import { formatSandboxLogEvent } from '../sandbox/log.js';
import { sandboxTestValues } from '../sandbox/outcomes.js';
import { startSandbox } from '../sandbox/server.js';
import {
  buildCallbackPayload,
  DEFAULT_MOBILE_MONEY_BRAND,
  isCallbackEventType,
} from '../testing/payloads.js';

/**
 * Where the program writes and what stops `sandbox`.
 *
 * @example
 * ```ts
 * const io: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), signal };
 * ```
 */
export interface CliIo {
  /** Writes to standard output (text includes its own newlines). */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Aborting it stops a running `sandbox` (the bin wires SIGINT/SIGTERM to it). */
  signal?: AbortSignal;
  /** Called once the sandbox listens, with its URL (for tests and embedding). */
  onListening?(url: string): void;
  /** `fetch` used by `trigger`. Default: the global one. */
  fetch?: typeof fetch;
}

/**
 * Default port of `hosted-payments sandbox`.
 *
 * @example
 * ```ts
 * new PaymentsClient({ baseUrl: `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}` });
 * ```
 */
export const DEFAULT_SANDBOX_PORT = 4010;

const integer = (what: string, min: number, max: number) => (value: string) => {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
    throw new InvalidArgumentError(`expected ${what} from ${min} to ${max}`);
  }
  return parsed;
};

const time = () => new Date().toISOString().slice(11, 23);

function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise<void>(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function buildProgram(io: CliIo, setExitCode: (code: number) => void): Command {
  const program = new Command('hosted-payments')
    .description(
      'Offline tools of the hosted-payments SDK: a local sandbox of the service and a callback trigger.',
    )
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text) })
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('sandbox')
    .description(
      'Run the sandbox in the foreground: the four endpoints, the hosted checkout page and callbacks ' +
        'delivered with retries, with a request/callback log. Stop with Ctrl-C.',
    )
    .addOption(
      new Option('-p, --port <port>', 'port to listen on (0 = any free port)')
        .argParser(integer('a port', 0, 65535))
        .default(DEFAULT_SANDBOX_PORT),
    )
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .addOption(
      new Option('--callback-delay <ms>', 'wait before delivering each callback, in ms')
        .argParser(integer('milliseconds', 0, 600_000))
        .default(200),
    )
    .addOption(
      new Option('--wallet-balance <amount>', 'starting wallet balance for payouts')
        .argParser(integer('an amount', 0, Number.MAX_SAFE_INTEGER))
        .default(sandboxTestValues.walletBalance),
    )
    .addOption(
      new Option('--payout-fee <amount>', 'fee charged on each payout')
        .argParser(integer('an amount', 0, Number.MAX_SAFE_INTEGER))
        .default(sandboxTestValues.payoutFee),
    )
    .addOption(
      new Option('--duplicates <n>', 'deliver every callback n more times, to test idempotency')
        .argParser(integer('a count', 0, 10))
        .default(0),
    )
    .option('--brand <word>', 'mobile-money brand word in payloads, e.g. M-PESA', DEFAULT_MOBILE_MONEY_BRAND)
    .action(
      async (options: {
        port: number;
        host: string;
        callbackDelay: number;
        walletBalance: number;
        payoutFee: number;
        duplicates: number;
        brand: string;
      }) => {
        const sandbox = await startSandbox({
          port: options.port,
          host: options.host,
          callbackDelayMs: options.callbackDelay,
          walletBalance: options.walletBalance,
          payoutFee: options.payoutFee,
          duplicateDeliveries: options.duplicates,
          mobileMoneyBrand: options.brand,
          log: (event) => {
            if (event.kind !== 'listening') io.stdout(`${time()} ${formatSandboxLogEvent(event)}\n`);
          },
        });
        io.stdout(
          [
            `hosted-payments sandbox listening on ${sandbox.url}`,
            `  point your client at it:  new PaymentsClient({ baseUrl: '${sandbox.url}' })`,
            `  test cards: ${sandboxTestValues.cards.success} pays, ${sandboxTestValues.cards.declined} is declined`,
            `  test phones: any valid number pays, ${sandboxTestValues.phones.insufficientFunds} fails (406)`,
            `  wallet balance: ${options.walletBalance}, payout fee: ${options.payoutFee}`,
            '  Ctrl-C to stop',
            '',
          ].join('\n'),
        );
        io.onListening?.(sandbox.url);
        await waitForAbort(io.signal);
        await sandbox.close();
        io.stdout('sandbox stopped\n');
      },
    );

  program
    .command('trigger')
    .description('Post a fixture callback of one event type to a callback URL and print the response status.')
    .argument('<event-type>', `one of: ${callbackEventTypes.join(', ')}`)
    .requiredOption('--url <callback-url>', 'the webhook URL to post to')
    .option('--secret <secret>', 'sign the URL with this secret (signCallbackUrl), as your app does')
    .option('--reference <reference>', 'merchant reference in the payload and the signed URL', 'ORDER-1001')
    .option('--amount <amount>', 'amount in the payload', '1500')
    .option('--currency <code>', 'currency in the payload', 'KES')
    .option('--brand <word>', 'mobile-money brand word', DEFAULT_MOBILE_MONEY_BRAND)
    .action(
      async (
        type: string,
        options: {
          url: string;
          secret?: string;
          reference: string;
          amount: string;
          currency: string;
          brand: string;
        },
      ) => {
        if (!isCallbackEventType(type)) {
          io.stderr(
            `error: unknown event type "${type}"; expected one of: ${callbackEventTypes.join(', ')}\n`,
          );
          setExitCode(2);
          return;
        }
        // payout reference ids are 12 digits; keep the caller's reference when it is one.
        const reference =
          type.startsWith('payout.') && !/^[1-9]\d{11}$/.test(options.reference)
            ? '123456789012'
            : options.reference;
        let url: string;
        try {
          url = options.secret
            ? await signCallbackUrl(options.url, { secret: options.secret, reference })
            : options.url;
          new URL(url);
        } catch (error) {
          io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
          setExitCode(2);
          return;
        }
        const payload = buildCallbackPayload(type, {
          reference,
          amount: options.amount,
          currency: options.currency,
          brand: options.brand,
        });
        const doFetch = io.fetch ?? fetch;
        let response: Response;
        try {
          response = await doFetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': 'hosted-payments-cli' },
            body: JSON.stringify(payload),
          });
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause;
          io.stderr(
            `error: could not reach ${new URL(url).origin}: ${cause?.code ?? (error as Error).message}\n`,
          );
          setExitCode(1);
          return;
        }
        const text = await response.text();
        io.stdout(
          `posted ${type} (reference ${reference}) → HTTP ${response.status} ${response.statusText}\n`,
        );
        if (text) io.stdout(`${text.length > 500 ? `${text.slice(0, 500)}…` : text}\n`);
        setExitCode(response.ok ? 0 : 1);
      },
    );

  return program;
}

/**
 * Runs the `hosted-payments` program with the user's arguments (without `node` and the script)
 * and resolves with the exit code. Never calls `process.exit`.
 *
 * @example
 * ```ts
 * const code = await run(['trigger', 'payout.succeeded', '--url', 'http://127.0.0.1:3000/hooks'], {
 *   stdout: (text) => process.stdout.write(text),
 *   stderr: (text) => process.stderr.write(text),
 * });
 * ```
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

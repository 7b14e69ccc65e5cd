/**
 * The `hosted-payments` command line: `sandbox` (run the sandbox in the foreground with a
 * request/callback log) and `trigger <event-type> --url <callback-url>` (post a fixture callback,
 * like a payment provider's own CLI). `run(argv, io)` is the whole program, testable in-process;
 * `src/cli.ts` only wires it to `process`.
 *
 * @module
 */

import { Command, CommanderError } from 'commander';
import { version } from '../../package.json';
import type { CliIo } from './io.js';
import { sandboxCommand } from './sandbox-command.js';
import { triggerCommand } from './trigger-command.js';

export type { CliIo } from './io.js';
export { DEFAULT_SANDBOX_PORT } from './sandbox-command.js';

function buildProgram(io: CliIo, setExitCode: (code: number) => void): Command {
  const program = new Command('hosted-payments')
    .description(
      'Offline tools of the hosted-payments SDK: a local sandbox of the service and a callback trigger.',
    )
    .version(version, '-v, --version', 'print the version of hosted-payments')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // Commander quotes an unknown `--flag=value` whole; the value may be a misspelt --secret's.
      outputError: (text, write) => write(text.replace(/(unknown option '[^'=]*)=[^']*'/g, "$1'")),
    })
    .showHelpAfterError('(run with --help for usage)');
  sandboxCommand(program.command('sandbox'), io);
  triggerCommand(program.command('trigger'), io, setExitCode);
  return program;
}

/** The exit code of bad arguments: a missing, unknown or invalid flag, a missing or extra argument. */
export const BAD_ARGUMENTS = 2;

/**
 * Runs the `hosted-payments` program with the user's arguments (without `node` and the script)
 * and resolves with the exit code: 0 when every answer was 2xx (or help was shown), 1 otherwise,
 * 2 for bad arguments. Never calls `process.exit`.
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
    // Commander stops with exit code 0 after --help or --version; anything else it stops on is an
    // argument it refused.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : BAD_ARGUMENTS;
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

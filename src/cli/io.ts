/**
 * Where the program writes, what it reads from the environment and what stops `sandbox`.
 *
 * @example
 * ```ts
 * import type { CliIo } from './io.js';
 *
 * const io: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };
 * ```
 */
export interface CliIo {
  /** Writes to standard output (text includes its own newlines). */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Aborting it stops a running `sandbox` (the bin wires SIGINT/SIGTERM to it). */
  signal?: AbortSignal | undefined;
  /** Called once the sandbox listens, with its URL (for tests and embedding). */
  onListening?(url: string): void;
  /** `fetch` used by `trigger`. Default: the global one. */
  fetch?: typeof fetch | undefined;
  /** Environment variables (`HOSTED_PAYMENTS_WEBHOOK_SECRET`). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

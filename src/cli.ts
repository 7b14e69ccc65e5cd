#!/usr/bin/env node
// The `hosted-payments` bin: wires run() (src/cli/program.ts) to the process.
import { run } from './cli/program.js';

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

void run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
}).then((code) => {
  process.exitCode = code;
});

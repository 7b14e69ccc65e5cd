// `hosted-payments sandbox` when it cannot listen: a system error is said in the command's own
// flags (--port, --host) with its code, and any other error is shown as it came; and what it hands
// startSandbox and says once listening. startSandbox is stubbed so that each case is reached
// without privileges, a taken port or an IPv6 interface.
import { describe, expect, it, vi } from 'vitest';
import { run, type CliIo } from '../../src/cli/program.js';

const failure = vi.hoisted(() => ({
  error: undefined as unknown,
  bound: undefined as string | undefined,
  options: undefined as unknown,
}));
vi.mock('../../src/sandbox/server.js', () => ({
  startSandbox: (options: unknown) => {
    failure.options = options;
    return failure.bound === undefined
      ? Promise.reject(failure.error)
      : Promise.resolve({
          url: 'http://localhost:4010',
          address: failure.bound,
          close: async () => undefined,
        });
  },
}));

async function sandboxFailingWith(error: unknown, args: string[] = []) {
  failure.error = error;
  const err: string[] = [];
  const io: CliIo = { stdout: () => undefined, stderr: (t) => void err.push(t) };
  const code = await run(['sandbox', ...args], io);
  return { code, err: err.join('') };
}

describe('hosted-payments sandbox says why it cannot listen', () => {
  it('a port that needs privileges (EACCES): names the port and says to give --port above 1023', async () => {
    const error = Object.assign(new Error('listen EACCES: permission denied 0.0.0.0:80'), { code: 'EACCES' });
    const { code, err } = await sandboxFailingWith(error, ['--port', '80']);
    expect(code).toBe(1);
    expect(err).toContain('port 80 needs privileges');
    expect(err).toContain('--port above 1023');
  });

  it('an error without a system code is shown as it came', async () => {
    const { code, err } = await sandboxFailingWith(new Error('sandbox broke'));
    expect(code).toBe(1);
    expect(err).toBe('error: sandbox broke\n');
  });
});

describe('hosted-payments sandbox once listening', () => {
  it('hands --callback-delay to the sandbox, and counts [::1] as loopback (no network warning)', async () => {
    failure.bound = '[::1]:4010';
    const out: string[] = [];
    const io: CliIo = {
      stdout: (t) => void out.push(t),
      stderr: () => undefined,
      signal: AbortSignal.abort(),
    };
    try {
      expect(await run(['sandbox', '--host', '::1', '--callback-delay', '5'], io)).toBe(0);
    } finally {
      failure.bound = undefined;
    }
    expect(failure.options).toMatchObject({ host: '::1', callbackDelayMs: 5 });
    expect(out.join('')).toContain('(bound to [::1]:4010)');
    expect(out.join('')).not.toContain('warning');
  });
});

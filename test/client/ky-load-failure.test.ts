// When ky cannot be loaded the call fails before anything is sent (ConnectionError, sent: false),
// and the message says why and what to do: Jest without --experimental-vm-modules is the common
// case (Node refuses import() inside Jest's vm context), a missing package the rare one.
// test/jest/ runs the real thing under Jest; here the import fails with Node's own error codes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { payoutInput } from '../helpers/inputs.js';

afterEach(() => {
  vi.doUnmock('ky');
  vi.resetModules();
});

/**
 * The main entry, freshly imported with loading ky failing with `error` itself (a factory that
 * throws would hand the SDK vitest's wrapper of it): the module's `default` throws when read.
 */
async function importWithKyFailing(error: Error) {
  vi.resetModules();
  vi.doMock('ky', () => ({
    get default(): never {
      throw error;
    },
  }));
  return import('../../src/index.js');
}

const withCode = (error: Error, code: string) => Object.assign(error, { code });

/** The error a client call rejects with, and how many fetches it made. */
async function failedCall(loadError: Error) {
  const { ConnectionError, PaymentsClient } = await importWithKyFailing(loadError);
  const fetch = vi.fn<typeof globalThis.fetch>();
  const client = new PaymentsClient({ baseUrl: 'https://payments.example.test', fetch });
  const error: unknown = await client.initiatePayout(payoutInput).catch((reason: unknown) => reason);
  expect(error).toBeInstanceOf(ConnectionError);
  expect(fetch).not.toHaveBeenCalled();
  return error as InstanceType<typeof ConnectionError>;
}

describe('a client call when ky cannot be loaded', () => {
  it('under Jest without --experimental-vm-modules, names Jest and the flag to set, not a missing package', async () => {
    const vmError = withCode(
      new TypeError('A dynamic import callback was invoked without --experimental-vm-modules'),
      'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG',
    );
    const error = await failedCall(vmError);
    expect(error.sent).toBe(false);
    expect(error.message).toMatch(/^initiatePayout could not load ky\b/);
    expect(error.message).toContain('Jest');
    expect(error.message).toContain('NODE_OPTIONS=--experimental-vm-modules');
    expect(error.message).not.toContain('is it installed');
    expect(error.message).toMatch(/nothing was sent$/);
    expect(error.cause).toMatchObject({ code: 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG' });
  });

  it('under Jest on a Node whose code for it has no _FLAG (older Node 20), names Jest and the flag too', async () => {
    const vmError = withCode(
      new TypeError('A dynamic import callback was not specified.'),
      'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING',
    );
    const error = await failedCall(vmError);
    expect(error.sent).toBe(false);
    expect(error.message).toContain('NODE_OPTIONS=--experimental-vm-modules');
    expect(error.message).not.toContain('is it installed');
  });

  it('when the package is missing, asks whether it is installed', async () => {
    const missing = withCode(new Error("Cannot find package 'ky'"), 'ERR_MODULE_NOT_FOUND');
    const error = await failedCall(missing);
    expect(error.sent).toBe(false);
    expect(error.message).toBe(
      'initiatePayout could not load ky, the HTTP client the SDK sends with (is it installed?); nothing was sent',
    );
    expect(error.cause).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
  });

  it('for any other failure, names what failed rather than guessing', async () => {
    const error = await failedCall(new SyntaxError('Unexpected token export'));
    expect(error.sent).toBe(false);
    expect(error.message).toBe(
      'initiatePayout could not load ky, the HTTP client the SDK sends with (SyntaxError: Unexpected token export); nothing was sent',
    );
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});

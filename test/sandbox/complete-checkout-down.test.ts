// completeCheckout against a sandbox that is not running (closed, or another port) must say which
// URL did not answer and that the sandbox is not answering, not a bare "TypeError: fetch failed".
import { describe, expect, it } from 'vitest';
import { completeCheckout, startSandbox } from '../../src/sandbox/index.js';

describe('completeCheckout when no sandbox answers', () => {
  it('names the URL and says the sandbox is not answering, keeping the system error as cause', async () => {
    const sandbox = await startSandbox({ log: false });
    const link = `${sandbox.url}/checkout/cs_ABCDEFGHIJ`;
    await sandbox.close();
    const error = (await completeCheckout(link, { method: 'card' }).catch(
      (reason: unknown) => reason,
    )) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(link);
    expect(error.message).toMatch(
      /no sandbox is answering at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED 127\.0\.0\.1:\d+\)/,
    );
    expect(error.message).toContain('is it still running');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect((error.cause as TypeError).message).toBe('fetch failed');
  });
});

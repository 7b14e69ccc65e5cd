// A mobile-money callback carries its amount as a JSON number, which holds a whole number exactly
// only up to Number.MAX_SAFE_INTEGER. A mobile-money transaction recorded for more could never be
// settled: each of its callbacks is refused (its amount cannot be read as written). The tracker
// refuses to record one, as the sandbox refuses to send one, before anything is sent.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

describe("a mobile-money transaction's amount", () => {
  it.each([['9007199254740992'], ['9007199254740993'], [`1${'0'.repeat(30)}`]])(
    'is refused above the largest whole number a JSON number holds: %s',
    async (amount) => {
      const tracker = createTransactionTracker();
      const error = await tracker
        .begin({ reference: 'ORD-MM-HUGE', kind: 'mobile_money', amount })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path.join('.'))).toEqual(['amount']);
      expect(await tracker.get('ORD-MM-HUGE')).toBeUndefined();
    },
  );

  it('is recorded up to it, and other kinds, whose callbacks carry the amount as text, above it', async () => {
    const tracker = createTransactionTracker();
    const largest = String(Number.MAX_SAFE_INTEGER);
    await expect(
      tracker.begin({ reference: 'MM', kind: 'mobile_money', amount: largest }),
    ).resolves.toMatchObject({ amount: largest });
    await expect(
      tracker.begin({ reference: 'CARD', kind: 'card', amount: '9007199254740993' }),
    ).resolves.toMatchObject({ amount: '9007199254740993' });
  });
});

// A payout sent without a reference_id of the merchant's own gets one made up for it, new on
// every call: the merchant's retry of a call whose outcome is unknown (a timeout, a crash before
// the reply) is then a second transfer, and the merchant has no name to reconcile the first by.
// initiatePayout requires it and sends nothing without one; buildPayoutRequest, whose result
// the merchant reads (and stores) before sending, still makes one up.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ValidationError } from '../../src/errors.js';
import { buildPayoutRequest, type PayoutInitiationInput } from '../../src/requests/payout.js';
import { fakeService } from '../helpers/fake-service.js';
import { payoutInput } from '../helpers/inputs.js';

const { reference_id: _dropped, ...transfer } = payoutInput.transfer;
// What a JavaScript caller can pass (the types refuse it: test/requests/reference.test-d.ts).
const withoutReference = { ...payoutInput, transfer } as PayoutInitiationInput;

describe('initiatePayout without transfer.reference_id', () => {
  it('is a ValidationError naming the field, and sends nothing', async () => {
    const sent: Request[] = [];
    const baseUrl = fakeService((request) => {
      sent.push(request);
      return Response.json({ message: 'Mobile Payout Initiated', status: 200 });
    });
    const client = new PaymentsClient({ baseUrl, apiKey: 'sk_test_payout_reference' });
    const error = await client.initiatePayout(withoutReference).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['transfer', 'reference_id'], code: 'required' }),
    ]);
    expect((error as Error).message).toMatch(/generateReferenceId\(\)/);
    expect(sent).toHaveLength(0);
    await expect(client.initiatePayout(payoutInput)).resolves.toMatchObject({ status: 200 });
    expect(sent).toHaveLength(1);
  });

  it.each([
    [
      'a reference_id given with an amount of 0',
      { reference_id: 483920175561, amount: 0 },
      'transfer.amount',
    ],
    ['a null reference_id', { reference_id: null }, 'transfer.reference_id'],
  ])('names only the field that is wrong for %s, and sends nothing', async (_name, change, field) => {
    const sent: Request[] = [];
    const baseUrl = fakeService((request) => {
      sent.push(request);
      return Response.json({ message: 'Mobile Payout Initiated', status: 200 });
    });
    const client = new PaymentsClient({ baseUrl, apiKey: 'sk_test_payout_reference' });
    const input = {
      ...payoutInput,
      transfer: { ...payoutInput.transfer, ...change },
    } as PayoutInitiationInput;
    const error = await client.initiatePayout(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path.join('.'))).toEqual([field]);
    expect(sent).toHaveLength(0);
  });

  it('is refused when a getter gives the reference only the first time it is read', async () => {
    const sent: Request[] = [];
    const baseUrl = fakeService((request) => {
      sent.push(request);
      return Response.json({ message: 'Mobile Payout Initiated', status: 200 });
    });
    const client = new PaymentsClient({ baseUrl, apiKey: 'sk_test_payout_reference' });
    let reads = 0;
    const input = {
      ...payoutInput,
      transfer: {
        ...transfer,
        get reference_id() {
          reads += 1;
          return reads === 1 ? 483920175561 : undefined;
        },
      },
    } as PayoutInitiationInput;
    const error = await client.initiatePayout(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['transfer', 'reference_id'], code: 'required' }),
    ]);
    expect(sent).toHaveLength(0);
  });

  it('buildPayoutRequest still makes one up, which the merchant reads from the body', () => {
    const body = buildPayoutRequest(withoutReference);
    expect(String(body.transfer.reference_id)).toMatch(/^[1-9][0-9]{11}$/);
  });
});

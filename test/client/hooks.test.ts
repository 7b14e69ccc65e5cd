import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { PaymentsClient, type RequestLogEvent, type ResponseLogEvent } from '../../src/index.js';
import { cardPaymentInput } from '../helpers/inputs.js';
import { BASE_URL, documentedReplies, useMockService } from '../helpers/msw.js';

const service = useMockService();

describe('hooks', () => {
  it('get the redacted request before sending and the response after', async () => {
    service.documented();
    const before: RequestLogEvent[] = [];
    const after: ResponseLogEvent[] = [];
    const client = new PaymentsClient({
      baseUrl: BASE_URL,
      apiKey: 'sk_test_secret',
      hooks: {
        beforeRequest: (event) => void before.push(event),
        afterResponse: async (event) => void after.push(event),
      },
    });
    await client.initiateCardPayment(cardPaymentInput);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({
      operation: 'initiateCardPayment',
      method: 'POST',
      url: `${BASE_URL}/api/payment/payment-initiate-callback/`,
      headers: { authorization: 'Bearer [redacted]', 'content-type': 'application/json' },
      body: { card_details: { card_number: '**** 9995', cvc: '[redacted]', expiry_month: 7 } },
    });
    expect(after[0]).toMatchObject({
      status: 200,
      responseBody: JSON.stringify(documentedReplies.card),
      responseHeaders: { 'content-type': 'application/json' },
    });
    expect(after[0]!.durationMs).toBeGreaterThanOrEqual(0);
    // The real body still went out unredacted.
    expect((await service.recorded())[0]!.text).toContain('"card_number":9999999999999995');
  });

  it('a throwing beforeRequest hook fails the call before anything is sent', async () => {
    service.on('api/payout/mobile-money-payout', () => HttpResponse.json(documentedReplies.payout));
    const client = new PaymentsClient({
      baseUrl: BASE_URL,
      hooks: {
        beforeRequest: () => {
          throw new Error('logger down');
        },
      },
    });
    await expect(client.initiateCardPayment(cardPaymentInput)).rejects.toThrow('logger down');
    expect(await service.recorded()).toHaveLength(0);
  });
});

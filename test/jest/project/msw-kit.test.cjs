// The same payment in a merchant's Jest test through hosted-payments/testing/msw (the root
// install's msw 2). Run by test/jest/jest.test.ts; what happened goes to HP_JEST_RECORD.
const { writeFileSync } = require('node:fs');
const { afterAll, beforeAll, expect, test } = require('@jest/globals');
const { setupServer } = require('msw/node');
const { PaymentsClient } = require('hosted-payments');
const { createPaymentsHandlers } = require('hosted-payments/testing/msw');

const baseUrl = 'https://payments.example.test';
const payments = createPaymentsHandlers({ baseUrl });
const server = setupServer(...payments.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  payments.close();
  server.close();
});

test('a mobile-money payment goes through', async () => {
  const client = new PaymentsClient({ baseUrl });
  const outcome = await client
    .initiateMobileMoneyPayment({
      customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
      amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
      callback_details: { transaction_reference: 'ORDER-1', callback_url: 'https://shop.example/webhooks' },
    })
    .then(
      (answer) => ({ answer }),
      (error) => ({ error: { name: error.name, message: error.message, sent: error.sent } }),
    );
  writeFileSync(process.env.HP_JEST_RECORD, JSON.stringify(outcome));
  expect(outcome).toEqual({ answer: { message: 'MOBILE-MONEY Payment Initiated', status: 200 } });
});

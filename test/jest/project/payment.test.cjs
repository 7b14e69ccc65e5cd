// A merchant's Jest test in a CommonJS project, as written from the README: the built package
// through its name (`require` → dist/*.cjs), a payment against the sandbox started in the test.
// Run by test/jest/jest.test.ts, which reads what happened from the file HP_JEST_RECORD names.
const { writeFileSync } = require('node:fs');
const { afterAll, beforeAll, expect, test } = require('@jest/globals');
const { PaymentsClient } = require('hosted-payments');
const { startSandbox } = require('hosted-payments/sandbox');

let sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ log: false });
});
afterAll(() => sandbox.close());

const describeError = (error) => ({
  name: error.name,
  message: error.message,
  sent: error.sent,
  cause: error.cause && { name: error.cause.name, code: error.cause.code, message: error.cause.message },
});

test('a mobile-money payment goes through', async () => {
  const client = new PaymentsClient({ baseUrl: sandbox.url });
  const outcome = await client
    .initiateMobileMoneyPayment({
      customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
      amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
      callback_details: { transaction_reference: 'ORDER-1', callback_url: 'https://shop.example/webhooks' },
    })
    .then(
      (answer) => ({ answer }),
      (error) => ({ error: describeError(error) }),
    );
  writeFileSync(process.env.HP_JEST_RECORD, JSON.stringify(outcome));
  expect(outcome).toEqual({ answer: { message: 'MOBILE-MONEY Payment Initiated', status: 200 } });
});

// A merchant's code, type-checked against the BUILT declarations (dist/*.d.ts and *.d.cts) by the
// oldest TypeScript this package supports, in every module resolution a consumer may use
// (oldest-typescript.test.ts). Also part of the root type check, against today's TypeScript.
import { createServer } from 'node:http';
import http2 from 'node:http2';
import {
  ApiError,
  PaymentsClient,
  ValidationError,
  buildPayoutRequest,
  generateReferenceId,
  isPaymentsError,
  normalizePhoneNumber,
  type CardPaymentInput,
  type ClientOptions,
  type PayoutRequest,
} from 'hosted-payments';
import {
  createCallbackHandler,
  createMemoryDedupeStore,
  parseCallback,
  safeParseCallback,
  signCallbackUrl,
  toNodeListener,
  verifyCallbackUrl,
  type CallbackEvent,
  type CallbackHandler,
  type CheckoutSucceededEvent,
} from 'hosted-payments/callbacks';
import { callbackFixtures } from 'hosted-payments/testing';
import type { Sandbox } from 'hosted-payments/sandbox';

const options: ClientOptions = {
  baseUrl: 'https://payments.example.com',
  apiKey: 'sk_test',
  mobileMoneyBrand: 'M-PESA',
};
const client = new PaymentsClient(options);

const card: CardPaymentInput = {
  customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
  amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
  card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: 2030, cvc: '123' },
  callback_details: { transaction_reference: 'ORDER-1001', callback_url: 'https://shop.example/hooks' },
};

export async function pay(): Promise<string> {
  try {
    const response = await client.initiateCardPayment(card, { timeout: 10_000 });
    const status: number = response.status;
    return `${response.message} ${status}`;
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((issue) => issue.message).join('\n');
    if (error instanceof ApiError) return String(error.status);
    if (isPaymentsError(error)) return error.name;
    throw error;
  }
}

// One reference type: the generated payout reference signs the callback URL as it is.
const referenceId: string = generateReferenceId();
export const payoutWebhookUrl: Promise<string> = signCallbackUrl('https://shop.example/hooks/payouts', {
  secret: 'new-secret-0123456789',
  reference: referenceId,
});

export const payout: PayoutRequest = buildPayoutRequest({
  customer_details: {
    full_name: 'John Doe',
    phone_number: normalizePhoneNumber('0712345678'),
    email: 'j@example.com',
  },
  destination: { type: 'MOBILE', country_code: 'KE', mobile_number: '254712345678', wallet_name: 'M-PESA' },
  transfer: { amount: 1000, currency: 'KES', reference_id: referenceId, description: 'Refund' },
  webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
});

export function describeEvent(event: CallbackEvent): string {
  switch (event.type) {
    case 'payment.card.succeeded':
      return event.data['payment status'];
    case 'payment.card.failed':
    case 'payment.mobile_money.succeeded':
    case 'payment.mobile_money.failed':
    case 'checkout.succeeded':
    case 'checkout.failed':
    case 'payout.succeeded':
    case 'payout.failed':
      return `${event.type} ${event.amount} ${event.paid ? 'paid' : 'unpaid'} ${event.reference ?? ''}`;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export const fromFixture: CallbackEvent = parseCallback(callbackFixtures['payout.failed']);
const safe = safeParseCallback('{}');
export const safeMessage: string = safe.success ? safe.event.type : safe.error.message;

export const handler: CallbackHandler = createCallbackHandler({
  secret: ['new-secret-0123456789', 'old-secret-0123456789'],
  dedupe: createMemoryDedupeStore(),
  onEvent: async (event, context) => {
    await Promise.resolve(`${event.type} ${context.reference ?? ''}`);
  },
});

// A function written for one event type is refused as onEvent: the handler passes it every type.
export const checkoutOnly: CallbackHandler = createCallbackHandler({
  secret: 'new-secret-0123456789',
  // @ts-expect-error a checkout.failed would reach a function typed for checkout.succeeded
  onEvent: (event: CheckoutSucceededEvent) => event.amount,
});

// The route on node:http and on node:http2's compatibility API, without a cast.
export const servers = [createServer(toNodeListener(handler)), http2.createServer(toNodeListener(handler))];

export async function signAndVerify(): Promise<string> {
  const url = await signCallbackUrl('https://shop.example/hooks', {
    secret: 'new-secret-0123456789',
    reference: 'ORDER-1',
  });
  const { reference } = await verifyCallbackUrl(url, { secret: 'new-secret-0123456789' });
  return reference;
}

export const sandboxUrl = (sandbox: Sandbox): string => sandbox.url;

// Options read from the environment as the docs show them (`string | undefined`), under
// exactOptionalPropertyTypes: an unset one is refused at run time, not by the compiler.
const env: Record<string, string | undefined> = process.env;
export const clientFromEnv = new PaymentsClient({
  baseUrl: env.PAYMENTS_BASE_URL ?? 'https://payments.example.com',
  apiKey: env.PAYMENTS_API_KEY,
  mobileMoneyBrand: env.MOBILE_MONEY_BRAND,
  timeout: env.TIMEOUT_MS === undefined ? undefined : Number(env.TIMEOUT_MS),
});
export const routeFromEnv: CallbackHandler = createCallbackHandler({
  secret: env.WEBHOOK_SECRET,
  publicOrigin: env.PUBLIC_ORIGIN,
  maxBodyBytes: env.MAX_BODY_BYTES === undefined ? undefined : Number(env.MAX_BODY_BYTES),
  onEvent: () => undefined,
});
export const dedupeFromEnv = createMemoryDedupeStore({
  maxEntries: env.MAX_ENTRIES === undefined ? undefined : 1,
});

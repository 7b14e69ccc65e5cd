// Valid inputs for every endpoint, typed with `satisfies` so they stop compiling when an input
// type changes. The card numbers are test numbers; 9999999999999995 is above 2^53.
import type {
  CardPaymentInput,
  CheckoutSessionInput,
  MobileMoneyPaymentInput,
  PayoutInput,
} from '../../src/index.js';

export const bigCardNumber = '9999999999999995';
export const cvc = '737';

export const cardPaymentInput = {
  customer_details: {
    full_name: 'Jane Doe',
    location: 'Nairobi',
    phone_number: '+254 712 345 678',
    email: 'jane@example.com',
  },
  products: [{ product_id: 7, product_name: 'Coffee', quantity: 2, unit_price: 250.5 }],
  amount: { delivery_fee: 100, discount_fee: 50n, total: '501', currency: 'kes' },
  card_details: { card_number: '9999 9999 9999 9995', expiry_month: 7, expiry_year: 2031, cvc },
  callback_details: {
    transaction_reference: 'order-1001',
    callback_url: 'https://shop.example/hooks/payments',
  },
} satisfies CardPaymentInput;

export const mobileMoneyPaymentInput = {
  customer_details: { full_name: 'Jane Doe', phone_number: '0112345678', email: 'jane@example.com' },
  products: [{ product_name: 'Tea', quantity: 3, unit_price: '99.50' }],
  amount: { delivery_fee: '100', discount_fee: 50, total: 400, currency: 'KES' },
  callback_details: {
    transaction_reference: 'order-1002',
    callback_url: 'https://shop.example/hooks/payments',
  },
} satisfies MobileMoneyPaymentInput;

export const checkoutSessionInput = {
  customer_details: { full_name: 'Jane Doe', phone_number: '712345678', email: 'jane@example.com' },
  amount: { order_id: 1003, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
  redirect_urls: {
    success_url: 'https://shop.example/paid',
    failed_url: 'https://shop.example/failed',
    callback_url: 'https://shop.example/hooks/payments',
  },
} satisfies CheckoutSessionInput;

export const payoutInput = {
  customer_details: { full_name: 'John Doe', phone_number: '254712345678', email: 'john@example.com' },
  destination: {
    type: 'mobile',
    country_code: 'KE',
    mobile_number: '0712345678',
    wallet_name: 'MOBILE-MONEY',
  },
  transfer: {
    amount: 1000,
    currency: 'KES',
    reference_id: 483920175561,
    description: 'Refund for order 1001',
  },
  webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
} satisfies PayoutInput;

/** Runs `fn`, expecting a ValidationError-like throw, and returns it. */
export function captureError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** Runs `run`, expecting it to reject, and returns what it rejected with. */
export async function captureRejection(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** The `path: code` of every issue of the ValidationError `fn` throws. */
export function issuesOf(fn: () => unknown): string[] {
  const error = captureError(fn) as {
    name?: string;
    issues?: readonly { path: readonly (string | number)[]; code: string }[];
  };
  if (error.name !== 'ValidationError' || !error.issues) throw error;
  return error.issues.map((issue) => `${issue.path.join('.')}: ${issue.code}`);
}

import { describe, expectTypeOf, it } from 'vitest';
import {
  PaymentsClient,
  buildPayoutRequest,
  type CardPaymentInput,
  type CardPaymentRequest,
  type CheckoutSessionInput,
  type CheckoutSessionResponse,
  type MobileMoneyPaymentInput,
  type PayoutInput,
  type PayoutRequest,
} from '../../src/index.js';

describe('input types', () => {
  it('require the documented objects and fields', () => {
    expectTypeOf<CardPaymentInput>().toHaveProperty('card_details');
    expectTypeOf<Required<CardPaymentInput>>().toMatchTypeOf<CardPaymentInput>();
    // @ts-expect-error card_details is required for a card payment
    const noCard: CardPaymentInput = {
      customer_details: { full_name: 'J', phone_number: '0712345678', email: 'j@e.co' },
      callback_details: { transaction_reference: 'r', callback_url: 'https://x.y' },
    };
    // @ts-expect-error phone_number is required
    const noPhone: MobileMoneyPaymentInput['customer_details'] = { full_name: 'J', email: 'j@e.co' };
    // @ts-expect-error a checkout needs amount (spec §4 rule 2)
    const noAmount: CheckoutSessionInput = {
      customer_details: { full_name: 'J', phone_number: '0712345678', email: 'j@e.co' },
      redirect_urls: { success_url: 'https://x', failed_url: 'https://x', callback_url: 'https://x' },
    };
    // @ts-expect-error order_id is required in a checkout amount
    const noOrder: CheckoutSessionInput['amount'] = {
      delivery_fee: 100,
      discount_fee: 50,
      total: 1,
      currency: 'KES',
    };
    // @ts-expect-error webhook_endpoint is required for a payout
    const noWebhook: Omit<PayoutInput, 'webhook_endpoint'> & { webhook_endpoint?: never } = {} as PayoutInput;
    void [noCard, noPhone, noAmount, noOrder, noWebhook];
  });

  it('accept friendly values and make reference_id and payment_method optional', () => {
    expectTypeOf<CardPaymentInput['card_details']['card_number']>().toEqualTypeOf<string | number>();
    expectTypeOf<NonNullable<CardPaymentInput['amount']>['total']>().toEqualTypeOf<
      string | number | bigint
    >();
    expectTypeOf<PayoutInput['transfer']['reference_id']>().toEqualTypeOf<
      string | number | bigint | undefined
    >();
    expectTypeOf<CardPaymentInput['customer_details']['payment_method']>().toEqualTypeOf<
      string | undefined
    >();
  });
});

describe('wire and response types', () => {
  it('type the wire body as spec §2 does', () => {
    expectTypeOf<CardPaymentRequest['card_details']['card_number']>().toEqualTypeOf<string | number>();
    expectTypeOf<NonNullable<CardPaymentRequest['amount']>['total']>().toEqualTypeOf<string>();
    expectTypeOf<PayoutRequest['transfer']['reference_id']>().toEqualTypeOf<number>();
    expectTypeOf(buildPayoutRequest).returns.toEqualTypeOf<PayoutRequest>();
  });

  it('resolve client calls with the documented replies', () => {
    const client = new PaymentsClient({ baseUrl: 'https://x.test' });
    expectTypeOf(client.createCheckoutSession).returns.resolves.toEqualTypeOf<CheckoutSessionResponse>();
    expectTypeOf<CheckoutSessionResponse['checkout_link']>().toEqualTypeOf<string>();
    expectTypeOf(client.initiatePayout).returns.resolves.toHaveProperty('status').toEqualTypeOf<200>();
    // @ts-expect-error baseUrl is required
    void new PaymentsClient({});
  });
});

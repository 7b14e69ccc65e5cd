import { describe, expect, it } from 'vitest';
import {
  buildPayoutRequest,
  generateReferenceId,
  payoutRequestSchema,
  ValidationError,
  type PayoutInput,
  type PayoutRequest,
} from '../../src/index.js';

type WithCustomerDetails = Extract<PayoutRequest, { customer_details: unknown }>;
import { captureError, issuesOf, payoutInput } from '../helpers/inputs.js';

const build = (input: unknown, options = {}) => buildPayoutRequest(input as PayoutInput, options);

describe('buildPayoutRequest', () => {
  it('builds the exact wire body of endpoint 4, reference_id as an integer', () => {
    const body = build(payoutInput);
    expect(body).toStrictEqual({
      customer_details: { full_name: 'John Doe', phone_number: '254712345678', email: 'john@example.com' },
      destination: {
        type: 'mobile',
        country_code: 'KE',
        mobile_number: '254712345678',
        wallet_name: 'MOBILE-MONEY',
      },
      transfer: {
        amount: '1000',
        currency: 'KES',
        reference_id: 483920175561,
        description: 'Refund for order 1001',
      },
      webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
    });
    expect(payoutRequestSchema.parse(body)).toStrictEqual(body);
    expect(JSON.stringify(body)).toContain('"reference_id":483920175561,');
  });

  it("puts the recipient under client_details with payoutRecipientKey: 'client_details'", () => {
    const body = build(payoutInput, { payoutRecipientKey: 'client_details' });
    expect(Object.keys(body)).toEqual(['client_details', 'destination', 'transfer', 'webhook_endpoint']);
    expect(payoutRequestSchema.parse(body)).toStrictEqual(body);
  });

  it('generates a 12-digit reference_id when the input has none', () => {
    const { reference_id: _r, ...transfer } = payoutInput.transfer;
    const body = build({ ...payoutInput, transfer });
    expect(String(body.transfer.reference_id)).toMatch(/^[1-9]\d{11}$/);
    expect(Number.isSafeInteger(body.transfer.reference_id)).toBe(true);
  });

  it('sends a reference_id from generateReferenceId() (a string) as the JSON integer', () => {
    const reference_id = generateReferenceId();
    const body = build({ ...payoutInput, transfer: { ...payoutInput.transfer, reference_id } });
    expect(body.transfer.reference_id).toBe(Number(reference_id));
    expect(JSON.stringify(body)).toContain(`"reference_id":${reference_id},`);
    expect(payoutRequestSchema.parse(body)).toStrictEqual(body);
  });

  it.each([483920175561, '483920175561'])(
    'takes the reference_id %j as a number or a string',
    (reference_id) => {
      const body = build({ ...payoutInput, transfer: { ...payoutInput.transfer, reference_id } });
      expect(body.transfer.reference_id).toBe(483920175561);
    },
  );

  it('rejects a 2541 recipient or wallet number (payouts: 2547 only)', () => {
    const input = {
      ...payoutInput,
      customer_details: { ...payoutInput.customer_details, phone_number: '0112345678' },
      destination: { ...payoutInput.destination, mobile_number: '254112345678' },
    };
    expect(issuesOf(() => build(input))).toEqual([
      'customer_details.phone_number: invalid_phone_number',
      'destination.mobile_number: invalid_phone_number',
    ]);
  });

  it('rejects client_details in the input, pointing at payoutRecipientKey', () => {
    const { customer_details, ...rest } = payoutInput;
    const input = { ...rest, client_details: customer_details };
    expect(issuesOf(() => build(input))).toEqual([
      'customer_details: invalid_type',
      'client_details: unrecognized_keys',
    ]);
    expect(() => build(input)).toThrow(/payoutRecipientKey/);
  });

  it('names what a missing or wrongly typed object should be', () => {
    const { customer_details: _customer, ...rest } = payoutInput;
    expect(() => build({ ...rest, webhook_endpoint: 'https://shop.example/hooks' })).toThrow(
      'Invalid payout: customer_details: required (expected object); webhook_endpoint: expected object, got string',
    );
  });

  it('names the rule of a missing or wrongly typed amount', () => {
    const { amount: _amount, ...transfer } = payoutInput.transfer;
    expect(() => build({ ...payoutInput, transfer })).toThrow(
      'transfer.amount: required (expected a whole number as a number, bigint or string)',
    );
    expect(() => build({ ...payoutInput, transfer: { ...transfer, amount: true } })).toThrow(
      'transfer.amount: expected a whole number of at least 1 as a number, bigint or string, got boolean',
    );
  });

  it.each([
    [{ amount: 0 }, 'transfer.amount: too_small'],
    [{ amount: '12.5' }, 'transfer.amount: invalid_amount'],
    [{ reference_id: 12345 }, 'transfer.reference_id: invalid_reference_id'],
    [{ reference_id: '012345678901' }, 'transfer.reference_id: invalid_reference_id'],
    [{ currency: 'kesh' }, 'transfer.currency: invalid_currency'],
    [{ description: '' }, 'transfer.description: empty'],
  ])('rejects transfer %j', (transfer, expected) => {
    expect(
      issuesOf(() => build({ ...payoutInput, transfer: { ...payoutInput.transfer, ...transfer } })),
    ).toEqual([expected]);
  });

  it.each([
    ['a zero-width space', '\u200b'],
    ['a word joiner', '\u2060'],
    ['a soft hyphen', '\u00ad'],
    ['spaces and zero-width characters', ' \u200b\ufeff '],
  ])('refuses a full_name of %s only, as it refuses a blank one', (_what, full_name) => {
    const input = { ...payoutInput, customer_details: { ...payoutInput.customer_details, full_name } };
    expect(issuesOf(() => build(input))).toEqual(['customer_details.full_name: empty']);
  });

  it('rejects a bad destination and webhook URL', () => {
    const input = {
      ...payoutInput,
      destination: { ...payoutInput.destination, country_code: 'KEN', type: '' },
      webhook_endpoint: { webhook_url: 'shop.example/hooks' },
    };
    expect(issuesOf(() => build(input))).toEqual([
      'destination.type: empty',
      'destination.country_code: invalid_format',
      'webhook_endpoint.webhook_url: invalid_url',
    ]);
  });

  it.each(['UK', 'EU', 'ZZ', 'XK', 'YU', 'uk'])(
    'refuses %s, two letters that are no ISO 3166-1 country code, and names the field',
    (country_code) => {
      const input = { ...payoutInput, destination: { ...payoutInput.destination, country_code } };
      const error = captureError(() => build(input));
      expect(error).toBeInstanceOf(ValidationError);
      expect(issuesOf(() => build(input))).toEqual(['destination.country_code: invalid_country']);
      expect((error as ValidationError).message).toContain('ISO 3166-1');
    },
  );

  it.each(['KE', 'gb', 'Ug', 'TZ', 'AX', 'SS'])(
    'accepts the ISO 3166-1 country code %s, upper-cased (a Kenyan wallet number written with its country code)',
    (country_code) => {
      const destination = { ...payoutInput.destination, country_code, mobile_number: '+254 712 345 678' };
      const body = build({ ...payoutInput, destination });
      expect(body.destination.country_code).toBe(country_code.toUpperCase());
      expect(body.destination.mobile_number).toBe('254712345678');
    },
  );

  it.each([
    ['TZ', '0712345678'],
    ['UG', '0712 345 678'],
    ['tz', '712345678'],
    ['RW', '０７１２３４５６７８'],
  ])(
    'refuses a wallet number without its country code beside country_code %s: it would be read as Kenyan and paid to another person (%s)',
    (country_code, mobile_number) => {
      const input = {
        ...payoutInput,
        destination: { ...payoutInput.destination, country_code, mobile_number },
      };
      const error = captureError(() => build(input));
      expect(error).toBeInstanceOf(ValidationError);
      expect(issuesOf(() => build(input))).toEqual(['destination.mobile_number: invalid_phone_number']);
      expect((error as ValidationError).message).toContain('without its country code');
    },
  );

  it('never sends a local number beside another country, however the input answers when read again (getters, a Proxy)', () => {
    const changing = (first: string, then: string) => {
      let reads = 0;
      return () => (reads++ === 0 ? first : then);
    };
    const country = changing('KE', 'TZ');
    const countryFlips = {
      type: 'mobile',
      get country_code() {
        return country();
      },
      mobile_number: '0712345678',
      wallet_name: 'MOBILE-MONEY',
    };
    const number = changing('+254712345678', '0712345678');
    const numberFlips = {
      type: 'mobile',
      country_code: 'TZ',
      get mobile_number() {
        return number();
      },
      wallet_name: 'MOBILE-MONEY',
    };
    // What is sent is what was parsed: the country read as KE, with the Kenyan number.
    const body = build({ ...payoutInput, destination: countryFlips });
    expect(body.destination).toMatchObject({ country_code: 'KE', mobile_number: '254712345678' });
    // A number parsed from +254… but read again as a local one is refused.
    expect(issuesOf(() => build({ ...payoutInput, destination: numberFlips }))).toEqual([
      'destination.mobile_number: invalid_phone_number',
    ]);
  });

  it('reads a wallet number without its country code as Kenyan beside country_code KE (or ke)', () => {
    for (const country_code of ['KE', 'ke']) {
      const destination = { ...payoutInput.destination, country_code, mobile_number: '0712345678' };
      expect(build({ ...payoutInput, destination }).destination.mobile_number).toBe('254712345678');
    }
  });

  it('refuses a wire body whose country_code is no ISO 3166-1 code', () => {
    const body = build(payoutInput) as WithCustomerDetails;
    const wire = { ...body, destination: { ...body.destination, country_code: 'UK' } };
    expect(payoutRequestSchema.safeParse(wire).success).toBe(false);
  });
});

describe('payoutRequestSchema', () => {
  it('accepts exactly one recipient key', () => {
    const body = build(payoutInput) as WithCustomerDetails;
    expect(payoutRequestSchema.safeParse({ ...body, client_details: body.customer_details }).success).toBe(
      false,
    );
    const { customer_details: _c, ...none } = body;
    expect(payoutRequestSchema.safeParse(none).success).toBe(false);
  });

  it('rejects a 2541 recipient or wallet number on the wire (payouts: 2547 only)', () => {
    const body = build(payoutInput) as WithCustomerDetails;
    const recipient = {
      ...body,
      customer_details: { ...body.customer_details, phone_number: '254112345678' },
    };
    const wallet = { ...body, destination: { ...body.destination, mobile_number: '254112345678' } };
    expect(payoutRequestSchema.safeParse(recipient).success).toBe(false);
    expect(payoutRequestSchema.safeParse(wallet).success).toBe(false);
  });

  it.each([99_999_999_999, 1_000_000_000_000])('rejects reference_id %j, not 12 digits', (reference_id) => {
    const body = build(payoutInput);
    expect(
      payoutRequestSchema.safeParse({ ...body, transfer: { ...body.transfer, reference_id } }).success,
    ).toBe(false);
  });

  it('rejects a lower-case country_code on the wire', () => {
    const body = build(payoutInput) as WithCustomerDetails;
    const wire = { ...body, destination: { ...body.destination, country_code: 'ke' } };
    expect(payoutRequestSchema.safeParse(wire).success).toBe(false);
  });

  it('rejects a reference_id sent as a string', () => {
    const body = build(payoutInput);
    expect(
      payoutRequestSchema.safeParse({ ...body, transfer: { ...body.transfer, reference_id: '483920175561' } })
        .success,
    ).toBe(false);
  });
});

describe('options of buildPayoutRequest', () => {
  it.each([
    ['null options', null, ''],
    ['an unknown payoutRecipientKey', { payoutRecipientKey: 'recipient' }, 'payoutRecipientKey'],
    ['a misspelt payoutRecipientKey', { payoutRecipientKey: 'client_detail' }, 'payoutRecipientKey'],
  ])('refuses %s with a ValidationError naming the option', (_name, options, option) => {
    const error = captureError(() => buildPayoutRequest(payoutInput, options as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path.join('.'))).toEqual([option]);
    expect((error as Error).message).toMatch(/^Invalid payout options: /);
  });
});

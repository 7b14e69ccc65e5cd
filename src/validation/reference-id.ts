import { fail, pass, preview, type Check } from './result.js';

/**
 * A fresh payout `reference_id`: 12 random digits, the first not 0, from
 * `crypto.getRandomValues`, as a string — the type `signCallbackUrl({ reference })` takes and
 * `event.reference` has. Payout inputs take it as it is (or as a number) and send the JSON integer
 * the service expects. Store it with the pending payout: the callback echoes it.
 *
 * @example
 * ```ts
 * import { PaymentsClient, generateReferenceId } from 'hosted-payments';
 * import { signCallbackUrl } from 'hosted-payments/callbacks';
 *
 * const client = new PaymentsClient({ baseUrl: 'https://api.example.com', apiKey: process.env.API_KEY });
 * const reference_id = generateReferenceId(); // e.g. '483920175561'
 * await client.initiatePayout({
 *   customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
 *   destination: { type: 'mobile', country_code: 'KE', mobile_number: '0712345678', wallet_name: 'MOBILE-MONEY' },
 *   transfer: { amount: 1000, currency: 'KES', reference_id, description: 'Refund for order 1001' },
 *   webhook_endpoint: {
 *     webhook_url: await signCallbackUrl('https://shop.example/hooks/payouts', {
 *       secret: process.env.WEBHOOK_SECRET!,
 *       reference: reference_id,
 *     }),
 *   },
 * });
 * ```
 */
export function generateReferenceId(): string {
  const bytes = new Uint32Array(12);
  crypto.getRandomValues(bytes);
  // The modulo bias of 2^32 % 10 is about 1e-9 per digit: negligible for an id.
  let digits = String(1 + (bytes[0]! % 9));
  for (let index = 1; index < 12; index += 1) digits += String(bytes[index]! % 10);
  return digits;
}

/** reference_id: 12 digits, first not 0, as number, bigint or digit string → a JSON-safe integer. */
export function checkReferenceId(input: unknown): Check<number> {
  const text = typeof input === 'number' || typeof input === 'bigint' ? String(input) : input;
  if (typeof text !== 'string' || !/^[1-9]\d{11}$/.test(text)) {
    return fail(
      'invalid_reference_id',
      `expected 12 digits, the first not 0 (or omit it and one is generated), got ${preview(input)}`,
    );
  }
  return pass(Number(text));
}

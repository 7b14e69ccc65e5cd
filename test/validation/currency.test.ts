import { describe, expect, it } from 'vitest';
import { checkCurrency } from '../../src/validation/currency.js';

describe('checkCurrency', () => {
  it('upper-cases a 3-letter ISO code', () => {
    expect(checkCurrency('kes')).toEqual({ ok: true, value: 'KES' });
    expect(checkCurrency('USD')).toEqual({ ok: true, value: 'USD' });
  });

  it.each(['KE', 'KESH', 'K3S', '', 'XQZ', 404])('rejects %j', (input) => {
    expect(checkCurrency(input)).toMatchObject({ ok: false, code: 'invalid_currency' });
  });
});

import { describe, expect, it } from 'vitest';
import { checkCountryCode } from '../../src/validation/country.js';

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const everyPair = [...letters].flatMap((first) => [...letters].map((second) => first + second));

// The regions ICU names that ISO 3166-1 does not assign: exceptionally or transitionally
// reserved, withdrawn, user-assigned or not countries.
const notAssigned = new Set(
  'AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB XK YD YU ZR ZZ'.split(' '),
);

describe('checkCountryCode', () => {
  it('accepts exactly the 249 ISO 3166-1 alpha-2 codes: the regions the runtime names, less the codes ISO does not assign', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    const expected = everyPair.filter((code) => names.of(code) !== undefined && !notAssigned.has(code));
    const accepted = everyPair.filter((code) => checkCountryCode(code).ok);
    expect(accepted).toEqual(expected);
    expect(accepted).toHaveLength(249);
  });

  it('upper-cases the code', () => {
    expect(checkCountryCode('ke')).toEqual({ ok: true, value: 'KE' });
  });

  it.each([
    ['KEN', 'invalid_format'],
    ['K', 'invalid_format'],
    [' KE', 'invalid_format'],
    [42, 'invalid_format'],
    ['UK', 'invalid_country'],
    ['XK', 'invalid_country'],
  ])('refuses %j as %s', (input, code) => {
    const result = checkCountryCode(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.code).toBe(code);
  });
});

// Two echo forms of card secrets a service may print (second review):
// 1. A double printed with a three-digit exponent (.NET's "E15" format specifier, MSVC's printf
//    before VS2015): the exponent group is [0-9]{1,2} followed by (?![0-9]).
// 2. A leading-zero cvc echoed as an integer inside a JSON string nested twice (\\\"cvc\\\":12):
//    the key pattern allows one optional backslash before each quote.
import { expect, it } from 'vitest';
import { redactText } from '../../src/internal/redact.js';

const secrets = { cardNumber: '4111111111111111', cvc: '012' };

it('removes a card printed with 15 digits and a three-digit exponent', () => {
  expect(redactText('{"error":"bad card 4.11111111111111E+015"}', secrets)).not.toContain('4.11111111111111');
});

it('removes a leading-zero cvc echoed inside a doubly escaped JSON string', () => {
  expect(redactText('{"error":"{\\"detail\\":\\"{\\\\\\"cvc\\\\\\":12}\\"}"}', secrets)).not.toMatch(
    /cvc\\+":12/,
  );
});

it.each([
  ['12.0', '{"cvc":12.0}', '{"cvc":"[redacted]"}'],
  ['12.00', '{"card":{"cvc":12.00}}', '{"card":{"cvc":"[redacted]"}}'],
  ['1.2E1', '{"cvc":1.2E1}', '{"cvc":"[redacted]"}'],
  [
    '12.0 and 1.2e+1 under other card-code keys',
    '{"security_code":12.0,"CVV":1.2e+1}',
    '{"security_code":"[redacted]","CVV":"[redacted]"}',
  ],
])('removes a leading-zero cvc a service read into a double and echoed as %s', (_name, text, redacted) => {
  expect(redactText(text, secrets)).toBe(redacted);
});

it('leaves 12.0 alone where no card-code key holds it (a bare 12.0 is as likely an amount)', () => {
  const text = '{"amount":12.0,"fee":1.2E1,"cvc_length":3}';
  expect(redactText(text, secrets)).toBe(text);
});

it.each(['card_cvc', 'cvc_number', 'CSC', 'cvn', 'Security Code', 'securityCode'])(
  'removes a leading-zero cvc echoed as an integer under the card-code key %s',
  (key) => {
    expect(redactText(`{"${key}":12}`, secrets)).toBe(`{"${key}":"[redacted]"}`);
  },
);

it.each([
  ['7 significant digits', '4.111111E+15', '4111111111111111'],
  ['15 significant digits, rounded up', '4.11111111111112E+15', '4111111111111115'],
])('removes a card printed in scientific notation with %s', (_name, printed, cardNumber) => {
  expect(redactText(`{"error":"bad card ${printed}"}`, { cardNumber })).toBe(
    '{"error":"bad card **** ' + cardNumber.slice(-4) + '"}',
  );
});

it('leaves a double in scientific notation that is not the card: other digits, another magnitude, too few digits', () => {
  // Another magnitude with 6 of the card's digits: 7 or more of them are the card cut short.
  const text = 'amounts 5.123456789E+15, 4.11111E+14 and 4.11111E+15';
  expect(redactText(text, secrets)).toBe(text);
});

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

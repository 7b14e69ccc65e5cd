// A secret of the wrong type (null from a config loader, a number, a Buffer read from a file, a
// String object, a function not called) is refused at creation with a TypeError that says what
// was given (its kind, never its text: it may be the secret itself) and what the option takes: a
// string, or a non-empty list of strings during a rotation. It said "secret is an empty list".
import { describe, expect, it } from 'vitest';
import { thrown } from '../helpers/caught.js';
import { createCallbackHandler } from '../../src/callbacks/handler.js';

const text = 'whsec_wrong_type_0123456789';
const refusal = (secret: unknown): Error => {
  const error = thrown(() => createCallbackHandler({ secret: secret as string, onEvent: () => undefined }));
  expect(error).toBeInstanceOf(TypeError);
  return error as Error;
};

describe('a secret that is neither a string nor a list', () => {
  it.each([
    ['null', null, 'null'],
    ['a number', 1234567890123456, 'number'],
    ['true', true, 'boolean'],
    ['an object', {}, 'object'],
    ['a String object', new String(text), 'object'],
    ['an object with toString', { toString: () => text }, 'object'],
    ['a Buffer', Buffer.from(text), 'object'],
    ['a Uint8Array', new Uint8Array(32), 'object'],
    ['a function', () => text, 'function'],
  ])('%s: says what was given and what is expected, without quoting it', (_label, secret, kind) => {
    const { message } = refusal(secret);
    expect(message).not.toMatch(/is an empty list/);
    expect(message).toMatch(
      new RegExp(
        `^createCallbackHandler: secret must be a string .*, or a non-empty list of them .*, got ${kind}\\.`,
      ),
    );
    expect(message).not.toContain(text);
    expect(message).not.toContain('1234567890123456');
  });
});

describe('a list', () => {
  it('that is empty is still refused as an empty list', () => {
    expect(refusal([]).message).toMatch(/^createCallbackHandler: secret is an empty list/);
  });

  it('holding something other than a string: names the item and what it is, without quoting it', () => {
    const { message } = refusal([text, Buffer.from(text)]);
    expect(message).toMatch(/^createCallbackHandler: secret\[1\] must be a string .*, got object\./);
    expect(message.split(text)).toHaveLength(1);
  });
});

// createCallbackHandler's number options (bytes and milliseconds) are whole numbers, checked as the
// SDK's other whole-number options are (the tracker's, its stores', the sandbox's): a value the
// handler could not honour (a fraction, 1.5e308, Infinity, 2^53) is a RangeError naming the option
// where it is given, and a string a TypeError that names its kind, never its text. A fractional
// processingTimeoutMs (0.5 ms) let every copy of one event run onEvent at once.
import { describe, expect, it } from 'vitest';
import { thrown } from '../helpers/caught.js';
import { createMemoryDedupeStore } from '../../src/callbacks/dedupe.js';
import { createCallbackHandler } from '../../src/callbacks/handler.js';

const secret = 'whsec_number_options_0123456789';
const names = ['maxBodyBytes', 'bodyTimeoutMs', 'dedupeTtlMs', 'processingTimeoutMs'] as const;

const create = (name: string, value: unknown) => () =>
  createCallbackHandler({ secret, onEvent: () => undefined, [name]: value });

describe.each(names)('%s', (name) => {
  it.each([0.5, 1.5, 1_000.25, 1.5e308, Infinity, -Infinity, NaN, 0, -1, 2 ** 53])(
    'refuses %s with a RangeError naming the option',
    (value) => {
      const error = thrown(create(name, value));
      expect(error).toBeInstanceOf(RangeError);
      expect((error as Error).message).toMatch(
        new RegExp(`^createCallbackHandler: ${name} must be a whole number from 1 to \\d+, got `),
      );
    },
  );

  it.each([
    ['a string of digits', '65536'],
    ['a secret put in the wrong place', 'whsec_live_do_not_log_me_0123'],
    ['a boolean', true],
    ['null', null],
    ['an object', { ms: 5_000 }],
  ])('refuses %s with a TypeError that does not quote it', (_label, value) => {
    const error = thrown(create(name, value));
    expect(error).toBeInstanceOf(TypeError);
    const { message } = error as Error;
    expect(message).toMatch(new RegExp(`^createCallbackHandler: ${name} must be a whole number`));
    if (typeof value === 'string') expect(message).not.toContain(value);
  });

  it('takes a whole number, and undefined for the default', () => {
    expect(typeof create(name, 1_000)()).toBe('function');
    expect(typeof create(name, undefined)()).toBe('function');
  });
});

it('bodyTimeoutMs: at most the longest timer a runtime keeps (2,147,483,647 ms)', () => {
  expect(typeof create('bodyTimeoutMs', 2_147_483_647)()).toBe('function');
  const error = thrown(create('bodyTimeoutMs', 2_147_483_648));
  expect(error).toBeInstanceOf(RangeError);
  expect((error as Error).message).toMatch(/bodyTimeoutMs .*2147483647/);
});

it('dedupeTtlMs and processingTimeoutMs: up to Number.MAX_SAFE_INTEGER with a store that keeps keys that long', () => {
  for (const name of ['dedupeTtlMs', 'processingTimeoutMs']) {
    expect(typeof create(name, Number.MAX_SAFE_INTEGER)()).toBe('function');
  }
});

// The memory dedupe store's bounds are whole numbers too: a fraction was floored (0.5 entries
// became 1) or kept (ttlMs 0.5), 1.5e308 accepted, and a string refused with its text quoted.
describe.each(['maxEntries', 'maxBytes', 'maxInProgress', 'ttlMs'] as const)(
  "createMemoryDedupeStore's %s",
  (name) => {
    it.each([0.5, 1_000.25, 1.5e308, Infinity, NaN, 0, -1, 2 ** 53])(
      'refuses %s with a RangeError naming the option',
      (value) => {
        const error = thrown(() => createMemoryDedupeStore({ [name]: value }));
        expect(error).toBeInstanceOf(RangeError);
        expect((error as Error).message).toMatch(
          new RegExp(`^createMemoryDedupeStore: ${name} must be a whole number from 1 to \\d+, got `),
        );
      },
    );

    it('refuses a string with a TypeError that does not quote it', () => {
      const error = thrown(() => createMemoryDedupeStore({ [name]: 'whsec_live_do_not_log_me_0123' }));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).not.toContain('whsec_live');
    });
  },
);

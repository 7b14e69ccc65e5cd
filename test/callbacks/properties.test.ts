import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callbackSchemas, safeParseCallback } from '../../src/callbacks/index.js';
import { keyForm } from '../../src/callbacks/verdict.js';
import { describedPayloads } from '../fixtures/described-payloads.js';

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join();

/** A spec payload with some keys dropped, some values replaced by arbitrary JSON, some keys added. */
const mutatedPayload = fc
  .tuple(
    fc.constantFrom(...describedPayloads.map(([, payload]) => payload as Record<string, unknown>)),
    fc.array(fc.tuple(fc.nat(), fc.oneof(fc.jsonValue(), fc.constant(undefined))), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'paid')),
      fc.jsonValue(),
      {
        maxKeys: 3,
      },
    ),
  )
  .map(([payload, edits, extra]) => {
    const copy: Record<string, unknown> = JSON.parse(JSON.stringify(payload));
    const keys = Object.keys(copy);
    for (const [index, value] of edits) {
      const key = keys[index % keys.length]!;
      if (value === undefined) delete copy[key];
      else copy[key] = value;
    }
    // Text, so __proto__ arrives as an own key the way JSON.parse makes it.
    const text = JSON.stringify(copy);
    const extraText = JSON.stringify(extra).slice(1, -1);
    return extraText === '' ? text : `{${extraText},${text.slice(1)}`;
  });

describe('safeParseCallback properties', () => {
  it('returns (never throws) for any JSON value, as an object or as text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(typeof safeParseCallback(value).success).toBe('boolean');
        expect(typeof safeParseCallback(JSON.stringify(value) ?? 'undefined').success).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });

  it('returns for any string and any bytes', () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array(), (text, bytes) => {
        expect(typeof safeParseCallback(text).success).toBe('boolean');
        expect(typeof safeParseCallback(bytes).success).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });

  it('gives every accepted event data that passes its variant schema, and never pollutes a prototype', () => {
    const before = prototypeKeys();
    let accepted = 0;
    fc.assert(
      fc.property(mutatedPayload, fc.boolean(), (text, asObject) => {
        const result = safeParseCallback(asObject ? JSON.parse(text) : text);
        expect(prototypeKeys()).toBe(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        if (result.success) {
          accepted++;
          const event = result.event;
          expect(callbackSchemas[event.type].safeParse(event.data).success).toBe(true);
          expect(event.paid).toBe(event.type.endsWith('.succeeded'));
          expect(typeof event.amount).toBe('string');
          expect([Object.prototype, null]).toContain(Object.getPrototypeOf(event.data));
        } else {
          expect(result.error.name).toBe('CallbackParseError');
        }
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it('accepts every unmodified spec payload under any extra keys', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...describedPayloads),
        fc.dictionary(
          fc.string().filter((key) => !(key in callbackSchemas['payment.card.succeeded'].shape)),
          fc.jsonValue(),
          {
            maxKeys: 5,
          },
        ),
        ([type, payload], extra) => {
          const all = Object.keys(callbackSchemas).flatMap((t) =>
            Object.keys(callbackSchemas[t as keyof typeof callbackSchemas].shape),
          );
          // Two keys of one form that say different things are refused (disagreeingTwin): one of each form.
          const forms = new Set(Object.keys(payload).map(keyForm));
          // A key the verdict reads as an outcome, amount, currency or reference (`err`, `status_code`,
          // `Currency`: it refuses a failure word or code there, and a success word or flag on a
          // failure) may refuse the payload by what it holds; every other key, whatever it holds,
          // is kept and not read.
          const read = (key: string) =>
            ['Failed', 1032, 'Success', true].some(
              (value) => !safeParseCallback({ ...payload, [key]: value }).success,
            );
          const clean = Object.fromEntries(
            Object.entries(extra).filter(([key]) => {
              if (all.includes(key) || read(key)) return false;
              const form = keyForm(key);
              if (form !== '' && forms.has(form)) return false;
              forms.add(form);
              return true;
            }),
          );
          const result = safeParseCallback({ ...clean, ...payload });
          expect(result.success && result.event.type).toBe(type);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// A baseUrl read from a file or an environment variable with a trailing newline was accepted: the
// URL parser drops it, yet every error message then carried the URL as written, newline and all,
// splitting the log line (an apiKey with the same newline is refused). White space or a control
// character anywhere in baseUrl is refused at construction, naming baseUrl, never quoting it.
import { describe, expect, it } from 'vitest';
import { PaymentsClient, ValidationError } from '../../src/index.js';

describe('baseUrl with white space or a control character', () => {
  it.each([
    ['a trailing newline', 'https://payments.example.com\n'],
    ['a leading space', ' https://payments.example.com'],
    ['a tab inside', 'https://payments.example.com/\tapi'],
    ['a carriage return', 'https://payments.example.com\r'],
  ])('%s is refused, naming baseUrl', (_label, baseUrl) => {
    let error: unknown;
    try {
      new PaymentsClient({ baseUrl });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([expect.objectContaining({ path: ['baseUrl'] })]);
    expect((error as ValidationError).issues[0]!.message).toMatch(/white space|control character/);
  });
});

describe('baseUrl unset', () => {
  it.each([
    ['undefined (an unset environment variable)', undefined],
    ['an empty string', ''],
  ])('%s is refused as required, saying what it got', (_label, baseUrl) => {
    let error: unknown;
    try {
      new PaymentsClient({ baseUrl: baseUrl as string });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({
        path: ['baseUrl'],
        message: expect.stringMatching(/required.*got (undefined|an empty string)/),
      }),
    ]);
  });
});

import { fail, pass, preview, type Check } from './result.js';

/** An absolute `http:` or `https:` URL */
export function checkHttpUrl(input: unknown): Check<string> {
  if (typeof input !== 'string')
    return fail('invalid_url', `expected an absolute http(s) URL string, got ${typeof input}`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return fail(
      'invalid_url',
      `expected an absolute http(s) URL such as https://shop.example/callback, got ${preview(input)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail('invalid_url', `expected an http: or https: URL, got the ${url.protocol} scheme`);
  }
  if (input.trim() !== input) return fail('invalid_url', 'expected a URL without surrounding spaces');
  return pass(input);
}

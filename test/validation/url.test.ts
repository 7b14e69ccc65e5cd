import { describe, expect, it } from 'vitest';
import { checkHttpUrl } from '../../src/validation/url.js';

describe('checkHttpUrl', () => {
  it.each(['https://shop.example/hooks', 'http://localhost:3000/cb?x=1'])('accepts %s', (url) => {
    expect(checkHttpUrl(url)).toEqual({ ok: true, value: url });
  });

  it.each(['/hooks', 'shop.example/hooks', 'ftp://shop.example', 'javascript:alert(1)', ' https://x.y', ''])(
    'rejects %j',
    (url) => {
      expect(checkHttpUrl(url)).toMatchObject({ ok: false, code: 'invalid_url' });
    },
  );
});

// checkHttpUrl's rule is that the text sent is the URL that was checked. A host the WHATWG parser
// rewrites into another ASCII host ('%2E', fullwidth letters, an ideographic full stop, a soft
// hyphen, '0x7f.1') is sent as written and may be read by the service's parser as another host, or
// none: refused, naming the host it is read as. Letter case, a default port and an
// internationalised name (read as punycode) are not another host.
import { describe, expect, it } from 'vitest';
import { ValidationError, buildCheckoutSessionRequest } from '../../src/index.js';
import { checkHttpUrl } from '../../src/validation/url.js';
import { checkoutSessionInput } from '../helpers/inputs.js';

describe('checkHttpUrl: a host the parser reads as another one', () => {
  it.each([
    ['https://shop%2Eexample/h', 'shop.example'],
    ['https://ｓｈｏｐ.example/h', 'shop.example'],
    ['https://shop\u3002example/h', 'shop.example'],
    ['https://shop.example\u00ad/h', 'shop.example'],
    ['https://0x7f.1/h', '127.0.0.1'],
    ['http://2130706433:8080/h', '127.0.0.1:8080'],
    // An internationalised label beside them does not excuse the others.
    ['https://bücher%2Eexample/h', 'xn--bcher-kva.example'],
    ['https://ｓｈｏｐ.bücher.example/h', 'shop.xn--bcher-kva.example'],
    ['https://shop.exam\u00adple.bücher.de/h', 'shop.example.xn--bcher-kva.de'],
    // An ASCII or IDN label spelled with look-alikes is read as another text than the one written.
    ['https://ｘｎ--bcher-kva.example/h', 'xn--bcher-kva.example'],
    ['https://ｂücher.example/h', 'xn--bcher-kva.example'],
    ['https://bü\u00adcher.example/h', 'xn--bcher-kva.example'],
    // A port written otherwise than it is read, IPv6 host or not.
    ['https://[::1]:0443/h', '[::1]'],
    // The four characters the two IDNA standards read differently (IDNA2003, as Python's idna
    // codec and Java's IDN still do, maps ß to ss and ς to σ and drops the joiners): the service
    // may post to another domain. Written as the punycode named, every reader agrees.
    ['https://straße.de/h', 'xn--strae-oqa.de'],
    ['https://ς.gr/h', 'xn--3xa.gr'],
    ['https://می\u200cخواهم.ir/cb', 'xn--mgbn2ecje63gr19l.ir'],
  ])('refuses %s, naming %s', (url, host) => {
    const checked = checkHttpUrl(url);
    expect(checked).toMatchObject({ ok: false, code: 'invalid_url' });
    expect((checked as { message: string }).message).toContain(`(${host})`);
  });

  it.each([
    'https://SHOP.example/h',
    'https://shop.example:443/h',
    'http://shop.example:80/h',
    'https://shop.example./h',
    'https://bücher.example/h',
    'http://[::1]:3000/h',
    // An IPv6 address in any of its spellings is one address to every parser.
    'http://[0:0:0:0:0:0:0:1]/h',
    'https://[2001:0db8::1]/h',
    'https://[::ffff:127.0.0.1]:8443/h',
    'https://[2001:DB8:0:0:1:0:0:1]/h',
  ])('accepts %s', (url) => {
    expect(checkHttpUrl(url)).toEqual({ ok: true, value: url });
  });

  it('a builder refuses such a callback_url naming the field', () => {
    const input = {
      ...checkoutSessionInput,
      redirect_urls: {
        ...checkoutSessionInput.redirect_urls,
        callback_url: 'https://ｓｈｏｐ.example/hooks',
      },
    };
    expect(() => buildCheckoutSessionRequest(input)).toThrow(ValidationError);
    expect(() => buildCheckoutSessionRequest(input)).toThrow(/callback_url/);
  });
});

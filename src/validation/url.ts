import { fail, pass, preview, type Check } from './result.js';

// The URL goes on the wire as the merchant wrote it, and the service reads it with a parser of its
// own. The WHATWG parser repairs text another parser may read differently — it drops tabs and line
// breaks, reads backslashes as slashes, supplies a missing `//`, skips an empty host — so a URL is
// accepted only when none of those repairs applies: the text sent is the URL that was checked.
// Messages never quote the URL: it may carry a password.

/** The scheme, `//` and the authority (up to the first `/`, `?` or `#`) at the start of the text. */
const schemeAndAuthority = /^https?:\/\/([^/?#]*)/i;

/**
 * An absolute `http:` or `https:` URL, already in the form it parses to: `//` after the scheme, a
 * host, no user name or password, no backslash, no ASCII whitespace or control character.
 */
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
  // \p{Cc}: the C0 controls (tab, line breaks, NUL…), DEL and the C1 controls.
  if (/[\p{Cc} ]/u.test(input)) {
    return fail(
      'invalid_url',
      'expected a URL without ASCII whitespace or control characters (spaces, tabs, line breaks); percent-encode a space in a path or query as %20',
    );
  }
  if (input.includes('\\')) {
    return fail('invalid_url', 'expected a URL without a backslash; separate its parts with /');
  }
  const authority = schemeAndAuthority.exec(input)?.[1];
  if (authority === undefined) {
    return fail('invalid_url', 'expected // after http: or https:, as in https://shop.example/callback');
  }
  if (authority === '') {
    return fail('invalid_url', 'expected a host right after //, as in https://shop.example/callback');
  }
  if (authority.includes('@')) {
    return fail(
      'invalid_url',
      'expected a URL without a user name or password before the host (they would be sent and logged with it)',
    );
  }
  if (!readAsWritten(authority, url)) {
    return fail('invalid_url', `expected the host written as it is read (${url.host})`);
  }
  return pass(input);
}

/**
 * Whether the parser reads the host and port written (letter case and a default port aside):
 * label by label the same text, or an internationalised label read as its punycode. '%2E',
 * fullwidth letters, an ideographic full stop, a soft hyphen or '0x7f.1' are read as another host
 * than the one sent. An IPv6 address is one address in any of its spellings.
 */
function readAsWritten(authority: string, url: URL): boolean {
  const [, host = '', port] = /^(.*?)(?::(\d*))?$/.exec(authority.toLowerCase()) ?? [];
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  if (port !== undefined && port !== '' && port !== (url.port || defaultPort)) return false;
  if (url.hostname.startsWith('[')) return true;
  const written = host.split('.');
  const read = url.hostname.split('.');
  return (
    written.length === read.length &&
    written.every((label, i) => label === read[i] || isIdnLabel(label, read[i]!))
  );
}

/**
 * An internationalised label written as itself: read as punycode, in the form Unicode
 * normalisation keeps (no fullwidth or compatibility letters), without characters the parser drops
 * (a soft hyphen, zero-width ones), without the four the two IDNA standards read differently (ß, ς
 * and the joiners: a resolver on IDNA2003 maps or drops them, so the service may post elsewhere;
 * their punycode is read alike) and without a percent-escape.
 */
const isIdnLabel = (label: string, read: string): boolean =>
  read.startsWith('xn--') &&
  /[^ -~]/.test(label) &&
  !label.includes('%') &&
  label.normalize('NFKC') === label &&
  !/[\u00df\u03c2]|\p{Default_Ignorable_Code_Point}/u.test(label);

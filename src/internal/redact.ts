// Redaction of secrets for hooks, errors and logs (DESIGN "Security": the card number, the cvc and
// the API key never appear in an error, a toString, JSON, util.inspect or a hook's log data).

/**
 * What to remove from everything a server sends back: the request's card number and cvc (card
 * payments only) and literal values such as the credential headers sent.
 */
export interface Secrets {
  readonly cardNumber?: string;
  readonly cvc?: string;
  /**
   * Literal values (an API key, a whole Authorization value), removed wherever they appear, in
   * any case, in every spelling {@link spellingsOf} lists, each also HTML-escaped
   * ({@link htmlPattern}).
   */
  readonly values?: readonly string[];
}

/** A wire field's text: a string or number as written, anything else empty. */
const fieldText = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : '';

/** The secrets of a card payment's wire body (undefined for the other bodies). */
export function cardSecretsOf(body: unknown): Secrets | undefined {
  const card = (body as { card_details?: { card_number?: unknown; cvc?: unknown } } | null)?.card_details;
  if (typeof card !== 'object' || card === null) return undefined;
  return { cardNumber: fieldText(card.card_number), cvc: fieldText(card.cvc).padStart(3, '0') };
}

/**
 * The one way the SDK shows a card number, in hook data, errors and the sandbox's log:
 * `'**** 4242'`, its last four digits only. Anything that is not at least four digits becomes
 * `'****'`. ASCII, so it reads the same in any log sink or header dump.
 */
export function maskCardNumber(cardNumber: unknown): string {
  const digits = fieldText(cardNumber);
  return /^\d{4,}$/.test(digits) ? `**** ${digits.slice(-4)}` : '****';
}

/**
 * The `hp_sig` values, as written, of the URLs in a wire body's JSON text (a signed `callback_url`
 * or `webhook_url`), for {@link Secrets.values}: each is a bearer token for its reference, with
 * which whoever reads it can post a callback the handler accepts. Read up to the next `&`, `#` or
 * `"`: the value as a server would echo it.
 */
export const signaturesOf = (wireText: string): string[] => wireText.match(/(?<=hp_sig=)[^&#"]+/g) ?? [];

/** The wire's amounts, sent as whole-number strings: one equal to the cvc is an amount, not the cvc. */
const amountKeys = new Set(['delivery_fee', 'discount_fee', 'total']);

/**
 * A copy of a wire body for a log: card_number masked to its last four, cvc replaced, and every
 * other text through {@link redactText} with `secrets` (the card number and cvc wherever else they
 * were typed, the literal values such as a signed callback URL's `hp_sig`); an amount without the
 * cvc's patterns, which would blank one equal to the cvc.
 */
export function redactWireBody<T>(body: T, secrets?: Secrets): T {
  const forAmounts: Secrets | undefined = secrets && { ...secrets, cvc: undefined };
  return JSON.parse(
    JSON.stringify(body, (key, value: unknown) =>
      key === 'card_number'
        ? maskCardNumber(value)
        : key === 'cvc'
          ? '[redacted]'
          : typeof value === 'string'
            ? redactText(value, amountKeys.has(key) ? forAmounts : secrets)
            : value,
    ),
  ) as T;
}

// Between two digits of an echoed card number: up to eight separators of any kind — spaces (any
// number, no-break ones included), dashes, dots, slashes, their escaped forms (`%20`, `\u0020`,
// `&nbsp;`, JSON's `\n`, `\r`, `\t`, `\b`, `\f`) and HTML tags (`</td><td>`) — anything but an
// ASCII letter or a digit (of any script) in any spelling {@link digit} reads. Each character has
// one reading: a `%` or `&` that starts an escape or an entity is read as that only, and no
// separator reads a digit's spelling, so a near match fails in linear time instead of trying every
// split of its gaps (a `\` read alone fails at the letter after it at once).
const separator =
  '(?:\\\\[bfnrt]|%(?!3\\d)[0-9A-Fa-f]{2}|\\\\u(?!003\\d)[0-9A-Fa-f]{4}|(?!&#(?:0*(?:4[89]|5[0-7])|[xX]0*3\\d);)&#?[0-9A-Za-z]{1,8};|</?[A-Za-z][^<>]{0,32}>|%(?![0-9A-Fa-f]{2})|&(?!#?[0-9A-Za-z]{1,8};)|[^\\p{Nd}A-Za-z%&]){0,8}';

/**
 * The escaped spellings of a digit (a pattern): JSON's `\u0034`, ES2015's `\u{34}`, C's `\x34`, a
 * percent-escape `%34`, an HTML character reference (`&#52;`, `&#x34;`). `low` matches the last
 * hex digit of its code (`4` for `4`, `\d` for any digit), `code` its decimal code (`52`).
 */
const escapedDigit = (low: string, code: string): string =>
  `\\\\(?:u003${low}|u\\{0*3${low}\\}|x3${low})|%3${low}|&#(?:0*${code}|[xX]0*3${low});`;

/**
 * A digit in a spelling other than ASCII: escaped ({@link escapedDigit}) or another script's
 * (fullwidth `４`, Arabic-Indic `٤`, any `\p{Nd}`).
 */
const spelledDigit = `(?:${escapedDigit('\\d', '(?:4[89]|5[0-7])')}|[^\\P{Nd}0-9])`;
/** Not inside a `\uXXXX` escape: its hex digits are none of the text's. */
const notInEscape = '(?<!\\\\u[0-9A-Fa-f]{0,3})';
/**
 * Where a number starts: not inside a `\uXXXX` escape, and after no digit in any spelling (the
 * last hex digit of an escape, in `\u00a0` or in a percent-escape such as `%20`, is no digit of
 * the text).
 */
const notAfterDigit = `${notInEscape}(?<!${notInEscape}(?<!%[0-9A-Fa-f])[0-9])(?<!${spelledDigit})`;
/** Where a number ends: before no digit in any spelling. */
const notBeforeDigit = `(?!${spelledDigit}|[0-9])`;

/** Whether the code point is a decimal digit of some script (`\p{Nd}`). */
const isDigitAt = (code: number): boolean => /\p{Nd}/u.test(String.fromCodePoint(code));

let digitsByValue: string[] | undefined;

/**
 * The decimal digits of every script the engine's Unicode knows (`\p{Nd}`), by value: each block
 * of ten is contiguous from its zero (the mathematical digits are five blocks in a row). Found on
 * the first card: every tenth code point below U+20000 (no digit lies above) is tried, each block
 * holding one, then its block's zero is walked back to.
 */
function digitsOfValue(value: number): string {
  if (digitsByValue === undefined) {
    digitsByValue = Array<string>(10).fill('');
    for (let code = 9; code < 0x20000; code += 10) {
      let zero = code;
      while (isDigitAt(zero)) zero--;
      zero = code - ((code - zero - 1) % 10);
      if (zero <= code) for (let at = 0; at < 10; at++) digitsByValue[at] += String.fromCodePoint(zero + at);
    }
  }
  return digitsByValue[value]!;
}

/**
 * A pattern (flag `u`) of one digit as a server may spell it: escaped ({@link escapedDigit}) or in
 * the digits of any script (`4`, fullwidth `４`, Arabic-Indic `٤`, Devanagari `४`, …).
 */
const digit = (char: string): string =>
  `(?:${escapedDigit(char, String(48 + Number(char)))}|[${digitsOfValue(Number(char))}])`;

/**
 * A value as a server may echo it: as written, JSON-escaped (`\"`, `\\`), JSON-escaped with every
 * `/` as `\/` (PHP's `json_encode`), and URL-encoded (its escapes' hex digits matched in either
 * case, {@link htmlPattern}); each spelling once.
 */
function spellingsOf(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  return [...new Set([value, json, json.replaceAll('/', '\\/'), encodeURIComponent(value)])];
}

/** Every spelling ({@link spellingsOf}) of each literal value of `secrets`. */
const valueSpellingsOf = ({ values = [] }: Secrets): string[] =>
  values.flatMap(spellingsOf).filter((spelling) => spelling !== '');

/** The names HTML encoders write for the characters a key may hold (`&amp;`, `&sol;`, `_` by either of its two, …). */
const entityNames: Readonly<Record<string, string>> = {
  '&': 'amp',
  '<': 'lt',
  '>': 'gt',
  '"': 'quot',
  "'": 'apos',
  '/': 'sol',
  '+': 'plus',
  '=': 'equals',
  _: 'lowbar|UnderBar',
  '.': 'period',
  ':': 'colon',
  ';': 'semi',
  ',': 'comma',
  '@': 'commat',
  '#': 'num',
  '%': 'percnt',
  '!': 'excl',
  '?': 'quest',
  $: 'dollar',
  '(': 'lpar',
  ')': 'rpar',
  '*': 'ast',
  '[': 'lsqb',
  ']': 'rsqb',
  '{': 'lcub',
  '}': 'rcub',
  '|': 'verbar',
  '^': 'Hat',
  '`': 'grave',
};

/**
 * A pattern (flags `iu`: matched in any case) of a spelling as written or escaped: each character
 * also as its character reference, decimal (`&#47;`) or hex (`&#x2F;`), with leading zeros or
 * without, or its name where {@link entityNames} has one (either with its `&` HTML-escaped again,
 * `&amp;#108;`, as a page quoting an escaped text writes it), as a JSON `\uXXXX` escape, and an
 * ASCII one percent-encoded or in its fullwidth form. The hex digits of a percent-escape in the
 * spelling are matched in either case (`%2F` and .NET's `%2f` decode alike) and as written only,
 * which leaves every character of the text one reading.
 */
function htmlPattern(spelling: string): string {
  return htmlPieces(spelling).join('');
}

/** {@link htmlPattern}'s pattern of each character of `spelling`, in order. */
function htmlPieces(spelling: string): string[] {
  const chars = [...spelling];
  return chars.map((char, index) => {
    if (/[0-9A-Za-z]/.test(char)) {
      // One of the two hex digits of a percent-escape: right after the `%`, or after its first digit.
      const hex =
        chars[index - 1] === '%' || (chars[index - 2] === '%' && /[0-9A-Fa-f]/.test(chars[index - 1] ?? ''));
      if (hex) return /[A-Fa-f]/.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : char;
      // A letter or digit as written or in its fullwidth form (either case: flag `i` folds them),
      // or in either case escaped (`\u006c`, `&#108;`, `%6C`). One alternative at most matches a
      // character: two that both did (the two cases of a fullwidth letter) made a near miss try
      // every combination of them, exponential in the secret's length.
      const forms = new Set([char.toLowerCase(), char.toUpperCase()].map((each) => each.charCodeAt(0)));
      return `(?:${char}|${fullwidth(char.charCodeAt(0))}${[...forms].map((code) => `|${escapes(code)}`).join('')})`;
    }
    const code = char.codePointAt(0) ?? 0;
    const name = entityNames[char];
    const wide = code > 0x20 && code < 0x7f ? `|${fullwidth(code)}` : '';
    return `(?:\\u{${code.toString(16)}}|${escapes(code)}${name === undefined ? '' : `|&(?:amp;)?(?:${name});`}${wide})`;
  });
}

/** The fullwidth form of a printable ASCII character (`ｓ`, `＿`, `－`), as a pattern. */
const fullwidth = (code: number): string => `\\u{${(code + 0xfee0).toString(16)}}`;

/**
 * The patterns of a character's escapes (flag `i`): its character reference, decimal (`&#47;`) or
 * hex (`&#x2F;`), with leading zeros or without, its `;` too or not (HTML reads `&#108` as `l`
 * where no digit follows), JSON's `\uXXXX`, as .NET (`\u002B`) and Go (`\u003c`) encoders write
 * some characters, ES2015's `\u{6c}`, C's and Python's `\x6c`, and an ASCII character's
 * percent-escape, also percent-encoded again (`%256C`: a URL put into a query).
 */
const escapes = (code: number): string => {
  const hex = code.toString(16);
  // A `;` after the reference is taken when there is one (`(?!;)` otherwise): read one way only.
  const reference = `&(?:amp;)?#(?:0*${code}(?![0-9])|x0*${hex}(?![0-9a-f]))(?:;|(?!;))`;
  const json = code < 0x10000 ? `|\\\\u${hex.padStart(4, '0')}` : '';
  const byte = code < 0x100 ? `|\\\\x${hex.padStart(2, '0')}` : '';
  const percent = code < 0x80 ? `|%(?:25)?${hex.padStart(2, '0')}` : '';
  return `${reference}${json}|\\\\u\\{0*${hex}\\}${byte}${percent}`;
};

// A JSON string (skipped, so that a number inside one is left alone; one left open runs to the end
// of the text, which keeps the scan linear), or numbers where JSON puts bare values: after `:`,
// `,` or `[`, with the numbers after them in a list (in a text that is not JSON, quoting a number
// there shows no more of it). Not after a number: in JSON that `,` is inside a list already read
// whole, and elsewhere (`4917,3851,2764,9357`) a list read from the middle could hold only a part
// of the card, leaving the rest before it in clear.
const jsonNumbers = /"(?:[^"\\]|\\.)*"?|(?<![\w.+-]\s*)[:,[]\s*(-?\d[\w.+-]*(?:\s*,\s*-?\d[\w.+-]*)*)/g;

/** A JSON number as written. */
const jsonNumberText = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** `text` through each pattern of `list`, in order. */
const replaceAll = (text: string, list: readonly Replacement[]): string =>
  list.reduce((out, [pattern, replace]) => out.replace(pattern, replace as string), text);

/**
 * Removes the secrets from a text such as a response body or header the server echoed: every
 * spelling of every literal value in any case (a reason phrase or a log line may upper-case it),
 * also HTML-escaped, the card number in any script's digits, whatever separates its digits and
 * wherever it stands (also run together with other digits), 7 or more of its digits
 * in a row as a number of its own (an echo cut short), and the cvc as a
 * standalone 3-digit group, its digits side by side or with the same space or dash between each
 * two (`7 3 7`, `7-3-7`), or as the double a service read it into (`737.0`, `7.37E+2`).
 *
 * A value is removed however short it is: a short key may also blank unrelated text that happens
 * to contain it, which costs the text's readability, never the key. Longer spellings go first, so
 * a value inside a longer one (the key inside `Bearer <key>`) leaves no piece of the longer one.
 */
export function redactText(text: string, secrets: Secrets | undefined): string {
  if (secrets === undefined) return text;
  const list = replacementsOf(secrets);
  // Bare JSON numbers holding a secret (a card_number or cvc echoed as the integer it was sent
  // as, the card's groups as the numbers of an array) are redacted first, each piece that is no
  // longer a number written as a JSON string, so that a JSON body stays JSON.
  const out = text.replace(jsonNumbers, (token, numbers: string = '') => {
    const redacted = replaceAll(numbers, list);
    if (redacted === numbers) return token;
    const pieces = redacted.split(',').map((piece) => {
      const value = piece.trim();
      return jsonNumberText.test(value) ? piece : piece.replace(value, `"${value}"`);
    });
    return token.replace(numbers, pieces.join(','));
  });
  return replaceAll(out, list);
}

/** The fewest of the card's digits in a row, as a number of its own, that are masked. */
const MIN_CARD_PART = 7;

/** Each Secrets' patterns, built once: an error or a hook event redacts every header with them. */
/** A pattern and what replaces each match: a text, or a function of the match (and its groups). */
type Replacement = readonly [RegExp, string | ((match: string, ...groups: string[]) => string)];

const replacements = new WeakMap<Secrets, readonly Replacement[]>();

/** The patterns {@link redactText} applies, in order, with what replaces each. */
function replacementsOf(secrets: Secrets): readonly Replacement[] {
  const cached = replacements.get(secrets);
  if (cached !== undefined) return cached;
  const list: Replacement[] = valueSpellingsOf(secrets)
    .sort((a, b) => b.length - a.length)
    .map((spelling) => [new RegExp(htmlPattern(spelling), 'giu'), '[redacted]']);
  const { cardNumber, cvc } = secrets;
  if (cardNumber !== undefined && /^\d{12,19}$/.test(cardNumber)) {
    const masked = maskCardNumber(cardNumber);
    // The number goes out as a bare JSON integer: a service that parses it into a double may print
    // it in scientific notation with 14 to 17 significant digits (PHP 4.1111111111111E+15, Java
    // 4.11111111111102E15 for …1020, its trailing zero dropped), which with the Luhn digit gives
    // the card back. One that agrees with the card to its last printed digit (rounded either way),
    // at 7 digits or more, is removed. First, so the digit pattern below does not take its mantissa.
    list.push([
      /(?<![0-9.])([1-9])\.([0-9]{1,20})[eE]\+?([0-9]{1,3})(?![0-9])/g,
      (match: string, whole: string, fraction: string, exponent: string) => {
        const digits = `${whole}${fraction}`.replace(/0+$/, '');
        if (digits.length < 7 || Number(exponent) !== cardNumber.length - 1) return match;
        const printed = BigInt(digits);
        const card = BigInt(cardNumber.slice(0, digits.length).padEnd(digits.length, '0'));
        return printed - card <= 1n && card - printed <= 1n ? masked : match;
      },
    ]);
    // Its plain digits side by side wherever they stand, also inside a longer run of digits (a PAN
    // with the expiry run onto it, 42424242424242421231), only not inside a `\u` escape.
    list.push([new RegExp(`${notInEscape}${cardNumber}`, 'g'), masked]);
    // The card as a number of its own, its digits in any spelling or script and with any
    // separators (not across a separator inside a longer run: two numbers of a list are not one
    // card), or a part of it, MIN_CARD_PART of its digits in a row or more, as a number of its
    // own: an echo the service cut short (`49173851276…`), its halves in two fields, or its last
    // digits. With the mask's last four, 11 leave one digit unknown, which the Luhn digit gives; 6
    // in a row at most are left (as many as PCI DSS allows shown with the last four: the BIN).
    // Another number holds 7 of the card's digits in a row only by chance (a phone number such as
    // 254712345678 is left alone). Each start's first MIN_CARD_PART digits, then as many of the
    // rest as follow: a pattern for each start, as one pattern of them all is too long (over 20 KB)
    // for V8 to optimise, and runs several times slower.
    for (let start = 0; start + MIN_CARD_PART <= cardNumber.length; start++) {
      const digits = [...cardNumber.slice(start)].map(digit);
      const rest = digits
        .slice(MIN_CARD_PART)
        .reduceRight((tail, next) => `(?:${separator}${next}${tail})?`, '');
      const part = `${digits.slice(0, MIN_CARD_PART).join(separator)}${rest}`;
      list.push([new RegExp(`${notAfterDigit}${part}${notBeforeDigit}`, 'gu'), masked]);
    }
    // Rounded above 2^53 (9999999999999995 as 9999999999999996) and printed in full: the card only
    // as a double prints it, a number of its own, not a part of a longer run.
    const rounded = String(Number(cardNumber));
    const spelled = (digits: string) => [...digits].map(digit).join(separator);
    if (rounded !== cardNumber) {
      list.push([new RegExp(`${notAfterDigit}${spelled(rounded)}${notBeforeDigit}`, 'gu'), masked]);
    }
  }
  if (cvc !== undefined && /^\d{3}$/.test(cvc)) {
    // Three digits (checked above): nothing in it a pattern would read as syntax. Side by side or
    // with the same space or dash between each two ("7 3 7"; not "7 3-7", nor "7.3.7", a version),
    // or side by side with a fraction of zeros, as a service that read it into a double prints it
    // (737.0, 737.00). Not next to a digit, nor to a '.' that joins it to a digit, nor before an
    // exponent, so a part of a larger number (1737, 737.45, 737.05, 0.737, v737.0.1, 737.0e5) is
    // left alone and a cvc ending a sentence ("cvc 737.") is not.
    const [a, b, c] = [...cvc].map(digit);
    list.push([
      new RegExp(
        `${notAfterDigit}(?<!\\d\\.)${a}(?:${b}${c}(?:\\.0+)?|([ -])${b}\\1${c})${notBeforeDigit}(?!\\.\\d|[eE][+-]?\\d)`,
        'gu',
      ),
      '[redacted]',
    ]);
    const value = Number(cvc);
    // The same double in scientific notation (C's %e 7.370000e+02, Java's BigDecimal 7.37E+2):
    // one whose value is the cvc, not inside a word or a larger number (the 7e2 of an id 3f7e2c is
    // left alone). A cvc with a leading zero is left to the keyed rule below: 4.2e1 is 42, as
    // likely an amount as a bare 42.
    if (value >= 100) {
      list.push([
        /(?<![0-9A-Za-z.])[0-9](?:\.[0-9]{1,20})?[eE][+-]?[0-9]{1,3}(?![0-9A-Za-z])/g,
        (match: string) => (Number(match) === value ? '[redacted]' : match),
      ]);
    }
    // A cvc with a leading zero, sent as the string "012" and read into an integer (Jackson's
    // default) or a double, comes back as 12, 12.0 or 1.2E1: removed where a key naming a card code
    // holds a number of its value (a bare 12 elsewhere is as likely an amount or a count).
    if (cvc[0] === '0') {
      // The key's quotes may be escaped, once or more (a JSON body quoted inside a string, maybe
      // twice): the replacement's quotes are escaped as the key's are.
      list.push([
        new RegExp(
          `((\\\\{0,8})"[^"\\\\]{0,40}(?:cvc|cvv|cvn|csc|security.?code)[^"\\\\]{0,40}\\\\{0,8}"\\s*:\\s*)(\\\\{0,8}"|)([0-9]{1,8}(?:\\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,3})?)\\3(?![0-9.])`,
          'gi',
        ),
        (match: string, key: string, escape: string, _quote: string, number: string) =>
          Number(number) === value ? `${key}${escape}"[redacted]${escape}"` : match,
      ]);
    }
  }
  replacements.set(secrets, list);
  return list;
}

/**
 * How far from its end a text is searched for a secret it ends inside: every spelling of one is
 * under 2 KiB (a card number in character references with separators between its digits).
 */
const SPLIT_SECRET_SPAN = 2_048;

/** The pattern of `pieces`' first, then of as many of the rest as follow, `between` before each. */
const startOf = (pieces: readonly string[], between = ''): string =>
  `${pieces[0] ?? ''}${pieces.slice(1).reduceRight((tail, next) => `(?:${between}${next}${tail})?`, '')}`;

/** The start of an escape, a character reference or a tag that the text's end cuts short. */
const cutEscape =
  '(?:\\\\(?:u(?:[0-9A-Fa-f]{0,3}|\\{[0-9A-Fa-f]{0,6})|x[0-9A-Fa-f]?)?|&(?:amp;)?#?[0-9A-Za-z]{0,8}|%(?:25[0-9A-Fa-f]?|[0-9A-Fa-f])?|</?[^<>]{0,32})?';

const splitPatterns = new WeakMap<Secrets, RegExp | null>();

/**
 * A pattern of a text's end that may be the start of a secret: of a literal value in any spelling
 * {@link redactText} reads, of the card number whatever separates its digits, or of the cvc, each
 * maybe with the start of one character's escape after it. Null without secrets.
 */
function splitPatternOf(secrets: Secrets): RegExp | null {
  const cached = splitPatterns.get(secrets);
  if (cached !== undefined) return cached;
  const starts = valueSpellingsOf(secrets).map((spelling) => startOf(htmlPieces(spelling)));
  const { cardNumber, cvc } = secrets;
  if (cardNumber !== undefined && /^\d{12,19}$/.test(cardNumber)) {
    starts.push(`${startOf([...cardNumber].map(digit), separator)}${separator}`);
  }
  if (cvc !== undefined && /^\d{3}$/.test(cvc)) starts.push(`${startOf([...cvc].map(digit), '[ -]?')}[ -]?`);
  const pattern = starts.length === 0 ? null : new RegExp(`(?:${starts.join('|')})${cutEscape}$`, 'iu');
  splitPatterns.set(secrets, pattern);
  return pattern;
}

/**
 * `text`, a reply cut short, without its end where that may be the start of a secret the cut
 * splits (see {@link splitPatternOf}), which {@link redactText} would not find: what is dropped
 * may be no secret at all (the last `4` of a text, the card starting with 4), but the text is cut
 * short already. Again while what remains may end inside another secret, within the last
 * SPLIT_SECRET_SPAN characters of `text` (a run of `4`s drops that much, no more).
 */
export function withoutSplitSecret(text: string, secrets: Secrets | undefined): string {
  const pattern = secrets === undefined ? null : splitPatternOf(secrets);
  if (pattern === null) return text;
  const from = Math.max(text.length - SPLIT_SECRET_SPAN, 0);
  let out = text;
  for (;;) {
    const found = pattern.exec(out.slice(from));
    if (found === null || found[0] === '') return out;
    out = out.slice(0, from + found.index);
  }
}

/**
 * The request and response headers whose values are credentials, and how a log line shows one:
 * `scheme` keeps the auth scheme (`Bearer [redacted]`), `opaque` shows nothing of it. The one list
 * the SDK reads to decide which header values are secret.
 */
const credentialHeaders: ReadonlyMap<string, 'scheme' | 'opaque'> = new Map([
  ['authorization', 'scheme'],
  ['proxy-authorization', 'scheme'],
  ['x-api-key', 'opaque'],
  ['api-key', 'opaque'],
  ['cookie', 'opaque'],
  ['set-cookie', 'opaque'],
  ['x-auth-token', 'opaque'],
  ['x-access-token', 'opaque'],
]);

// A header of the merchant's own naming a credential (the API reference names no scheme, so a
// service may want `x-api-token` or `x-merchant-key`): its value is shown as nothing. A name holding
// one of these anywhere, or `pwd` or `pin` as a whole part, next to no letter or digit
// (`x-merchant-pwd`, `x-api-pin`; not `x-pinned-cert` or `x-shipping`: inside a longer word these
// are too short to mean a credential).
const credentialName =
  /auth|token|key|secret|pass|session|cookie|cred|sig|hmac|jwt|(?<![0-9a-z])(?:pwd|pin)(?![0-9a-z])/i;

/** How a header's value is shown, by its name: the list above, then a name naming a credential. */
const credentialKind = (name: string): 'scheme' | 'opaque' | undefined => {
  const lower = name.toLowerCase();
  return credentialHeaders.get(lower) ?? (credentialName.test(lower) ? 'opaque' : undefined);
};

// Shorter values of such a header are shown as nothing in a header dump but not removed from
// bodies: a `x-session: 7` would otherwise take every 7 out of an error's text.
const MIN_ECHOED_SECRET = 8;

/** `Bearer sk_…` → `Bearer `: the auth scheme and the space after it, or `''` for a value without one. */
const schemeOf = (value: string): string => /^\S+\s+/.exec(value)?.[0] ?? '';

/**
 * The secret values of a request's headers, for {@link Secrets.values}: the value of each
 * credential header and, for those with an auth scheme, the credentials after it. Each as sent:
 * fetch takes the blanks around a header value off, so a service echoes the key without them.
 */
export function credentialValuesOf(headers: Readonly<Record<string, string>>): string[] {
  const values: string[] = [];
  for (const [name, given] of Object.entries(headers)) {
    const value = given.trim();
    const kind = credentialHeaders.get(name.toLowerCase());
    if (kind === 'opaque') values.push(value);
    if (kind === 'scheme') values.push(value, value.slice(schemeOf(value).length));
    if (kind === undefined && credentialKind(name) && value.length >= MIN_ECHOED_SECRET) values.push(value);
  }
  return values;
}

/**
 * Headers for a log line or an error: credential values keep at most their auth scheme (`Bearer
 * [redacted]`), every other value goes through {@link redactText}, and so does every name (a
 * service may echo a value into one, `x-4242424242424242: 1`, a value lower-cased as fetch gives a
 * name); two names redacted alike keep both
 * values, joined with `, ` as fetch joins a repeated header.
 */
export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secrets?: Secrets,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const kind = credentialKind(name);
    const shown =
      kind === undefined
        ? redactText(value, secrets)
        : `${kind === 'scheme' ? schemeOf(value) : ''}[redacted]`;
    const shownName = redactText(name, secrets);
    out[shownName] = Object.hasOwn(out, shownName) ? `${out[shownName]}, ${shown}` : shown;
  }
  return out;
}

/**
 * Whether `value` is an instance of `type`; false when the check throws: a failure or an abort
 * reason is the caller's value, and `instanceof` runs the getPrototypeOf trap of a Proxy, whose
 * error may quote the request.
 */
export function isInstance(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/**
 * The failure as a chain of plain errors: name, message, stack and `code` with the call's secrets
 * taken out, and the cause the same way. Nothing else is kept: a `fetch` wrapper's error may
 * carry the request it was sending (its body, its Authorization header), and `util.inspect`
 * shows every property of a cause.
 */
export function plainCause(error: unknown, secrets: Secrets | undefined, depth = 0): unknown {
  // Only strings are kept (a message may be a Request); a property that throws drops the cause,
  // and so does an `instanceof` that throws (a Proxy's getPrototypeOf trap, a revoked Proxy).
  const text = (value: unknown) => (typeof value === 'string' ? redactText(value, secrets) : undefined);
  if (typeof error === 'string') return text(error);
  if (depth > 8) return undefined;
  try {
    if (!(error instanceof Error)) return undefined;
    const cause = plainCause(error.cause, secrets, depth + 1);
    const plain = new Error(text(error.message), cause === undefined ? undefined : { cause });
    plain.name = text(error.name) ?? 'Error';
    plain.stack = text(error.stack);
    const { code } = error as { code?: unknown };
    if (typeof code === 'number') Object.assign(plain, { code });
    if (typeof code === 'string') Object.assign(plain, { code: text(code) });
    return plain;
  } catch {
    return undefined;
  }
}

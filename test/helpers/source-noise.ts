// What a machine writes into an error's text by chance, taken out before a test looks there for a
// cvc or a card number: a fresh clone's path holds random characters (`/tmp/tmp.k737Qa…/src/…`), a
// source position is a line number (`http.ts:737:13`), and OpenSSL begins its messages with the
// thread's id in hex (`800C4781887F0000:error:…`, which can end in …737F0000).

/**
 * A stack frame's place, `:line:column` after a path or a file's name. It starts only where a
 * path can start, so each run of path characters is read once (linear in the text's length).
 */
const sourcePosition = /(?<![\w.@+~%/-])(?:file:\/\/|node:)?[\w.@+~%/-]+:\d+:\d+/g;

/** A path (it has a slash) or a source file's name: not a number that ends in `:12:30`. */
const isSource = (place: string) => place.includes('/') || /\.[cm]?[jt]sx?:/.test(place);

/** OpenSSL's per-thread prefix of an error line. */
const opensslThread = /\b[0-9A-F]{8,16}(?=:error:)/g;

/** `text` without source positions (with their paths) and OpenSSL's thread ids. */
export function withoutSourceNoise(text: string): string {
  return text.replace(sourcePosition, (place) => (isSource(place) ? '' : place)).replace(opensslThread, '');
}

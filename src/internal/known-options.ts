/**
 * The options objects outside the client (the webhook route, URL signing, parsing, the stores, the
 * tracker, the sandbox and the testing aids) hold only the keys their functions know. A misspelt
 * option — `publicOrign`, `onContradictions`, `stor`, `failureRat` — would otherwise be dropped and
 * its default used in silence, and the default is often the weaker setting (no pinned origin, the
 * documented contradiction accepted, a store in this process only, a sandbox where every payment
 * succeeds). The client's own options are checked by its schemas.
 *
 * @module
 */
import { keyShown } from './values.js';

/** Every key an options type has, each mapped to `true`: the compiler keeps the list complete. */
export type OptionNames<Options> = { readonly [Key in keyof Required<Options>]: true };

/**
 * Throws a `TypeError` naming the first key of `options` that `known` lacks, or saying that
 * `options` is not an object; `undefined` (no options) passes.
 *
 * @example
 * ```ts
 * const names: OptionNames<ParseCallbackOptions> = { onContradiction: true };
 * refuseUnknownOptions('parseCallback', options, names);
 * ```
 */
export function refuseUnknownOptions(where: string, options: unknown, known: object): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${where}: options must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(known, key)) {
      throw new TypeError(
        `${where}: unknown option ${keyShown(key)}; the options are ${Object.keys(known).join(', ')}`,
      );
    }
  }
}

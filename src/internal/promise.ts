/**
 * Runs `work` at once and hands back its result as a promise, a throw as a rejection: how the
 * in-memory stores implement their asynchronous interfaces without an `async` function that has
 * nothing to await.
 */
export const promised = <T>(work: () => T): Promise<T> => new Promise<T>((resolve) => resolve(work()));

/** What {@link raced} gives up on `work` at. */
interface Limits {
  /** Rejects with its reason, as it is, once it aborts (at once when it already has). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Rejects with what `timedOut` returns once this many ms pass (no timer without both, nor for
   * `Infinity`: a call without a deadline).
   */
  readonly ms?: number | undefined;
  readonly timedOut?: (() => Error) | undefined;
}

/**
 * `work`'s outcome, unless `signal` aborts or `ms` pass first; the listener and the timer are let
 * go of as soon as it settles, whichever way. A rejection of `work` after it settled is handled
 * here (never an unhandled rejection); what `work` still holds is the caller's to release. A timer,
 * not `AbortSignal.any` over `AbortSignal.timeout`: on Node 20 nothing holds that signal, and a
 * garbage collection takes it before it fires.
 */
export function raced<T>(work: T | PromiseLike<T>, { signal, ms, timedOut }: Limits): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = (): void => undefined;
  return new Promise<T>((resolve, reject) => {
    if (ms !== undefined && ms !== Infinity && timedOut) timer = setTimeout(() => reject(timedOut()), ms);
    onAbort = () => reject(signal?.reason as Error);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort);
    Promise.resolve(work).then(resolve, reject);
  }).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}

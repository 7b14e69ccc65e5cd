/**
 * Runs `work` at once and hands back its result as a promise, a throw as a rejection: how the
 * in-memory stores implement their asynchronous interfaces without an `async` function that has
 * nothing to await.
 */
export const promised = <T>(work: () => T): Promise<T> => new Promise<T>((resolve) => resolve(work()));

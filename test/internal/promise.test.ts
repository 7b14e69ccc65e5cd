import { afterEach, expect, it, vi } from 'vitest';
import { raced } from '../../src/internal/promise.js';

/** A signal that counts the listeners added to it and not removed. */
function countedSignal(): { controller: AbortController; listeners: () => number } {
  const controller = new AbortController();
  const held = new Set<unknown>();
  const { signal } = controller;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<typeof add>) => {
    held.add(args[1]);
    add(...args);
  };
  signal.removeEventListener = (...args: Parameters<typeof remove>) => {
    held.delete(args[1]);
    remove(...args);
  };
  return { controller, listeners: () => held.size };
}

const timedOut = () => new DOMException('too late', 'TimeoutError');

afterEach(() => {
  vi.useRealTimers();
});

it("answers with work's value, or its rejection, and lets go of the listener and the timer", async () => {
  vi.useFakeTimers();
  const { controller, listeners } = countedSignal();
  await expect(raced(Promise.resolve(1), { signal: controller.signal, ms: 1_000, timedOut })).resolves.toBe(
    1,
  );
  expect([listeners(), vi.getTimerCount()]).toEqual([0, 0]);
  const failure = new Error('store down');
  await expect(
    raced(Promise.reject(failure), { signal: controller.signal, ms: 1_000, timedOut }),
  ).rejects.toBe(failure);
  expect([listeners(), vi.getTimerCount()]).toEqual([0, 0]);
});

it('takes a plain value or a thenable with no finally as work', async () => {
  await expect(raced(2, {})).resolves.toBe(2);
  const thenable = { then: (resolve: (value: number) => void) => resolve(3) } as PromiseLike<number>;
  await expect(raced(thenable, {})).resolves.toBe(3);
});

it("rejects with the signal's reason as it is, also one that is not an Error, and clears the timer", async () => {
  vi.useFakeTimers();
  const { controller, listeners } = countedSignal();
  const call = raced(new Promise(() => undefined), { signal: controller.signal, ms: 1_000, timedOut });
  controller.abort('not an Error');
  await expect(call).rejects.toBe('not an Error');
  expect([listeners(), vi.getTimerCount()]).toEqual([0, 0]);
});

it('rejects at once on a signal that already aborted, without listening to it', async () => {
  const reason = new Error('gone');
  const { controller, listeners } = countedSignal();
  controller.abort(reason);
  await expect(raced(Promise.resolve(1), { signal: controller.signal })).rejects.toBe(reason);
  expect(listeners()).toBe(0);
});

it('rejects with timedOut() once ms pass, and lets go of the listener', async () => {
  vi.useFakeTimers();
  const { controller, listeners } = countedSignal();
  const call = raced(new Promise(() => undefined), { signal: controller.signal, ms: 50, timedOut });
  const outcome = expect(call).rejects.toMatchObject({ name: 'TimeoutError', message: 'too late' });
  await vi.advanceTimersByTimeAsync(49);
  expect(vi.getTimerCount()).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  await outcome;
  expect([listeners(), vi.getTimerCount()]).toEqual([0, 0]);
});

it('sets no timer without ms, nor without timedOut', async () => {
  vi.useFakeTimers();
  void raced(new Promise(() => undefined), { timedOut });
  void raced(new Promise(() => undefined), { ms: 10 });
  expect(vi.getTimerCount()).toBe(0);
});

it("takes work's rejection after the abort won: no unhandled rejection", async () => {
  const controller = new AbortController();
  let fail: (error: Error) => void = () => undefined;
  const work = new Promise<never>((_, reject) => (fail = reject));
  const call = raced(work, { signal: controller.signal });
  controller.abort();
  await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  fail(new Error('the store failed after the abort'));
  // An unhandled rejection would fail this file.
  await new Promise((resolve) => setTimeout(resolve, 10));
});

it('never times out on ms of Infinity (a call without a deadline), nor arms a timer for it', async () => {
  const call = raced(new Promise(() => undefined), { ms: Infinity, timedOut });
  const later = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 20));
  // setTimeout(…, Infinity) fires after 1 ms.
  await expect(Promise.race([call, later])).resolves.toBe('still waiting');
  vi.useFakeTimers();
  void raced(new Promise(() => undefined), { ms: Infinity, timedOut });
  expect(vi.getTimerCount()).toBe(0);
});

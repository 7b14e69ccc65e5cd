// Fake timers for the tracker's waits: only the timer functions, so promises, performance.now()
// and Date run as they do.
import { vi } from 'vitest';

/** Fakes setTimeout/setInterval and their clears; undo with `vi.useRealTimers()`. */
export const fakeTimers = () =>
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });

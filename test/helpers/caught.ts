/** What `run` threw or rejected with; fails the test when it returned or resolved instead. */
export async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw or a rejection');
}

/** What `run` threw synchronously, or `undefined` when it returned. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

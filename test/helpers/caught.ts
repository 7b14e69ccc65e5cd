/** What `run` threw or rejected with; fails the test when it returned or resolved instead. */
export async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw or a rejection');
}

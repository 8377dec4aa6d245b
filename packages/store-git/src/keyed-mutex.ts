// Why: writers to the same branch within one process queue here instead of racing for the ref
// lock file, so in-process contention costs no retries or sleeps. It is module-wide, so two store
// instances on the same repository and branch also queue. Across processes the ref lock decides.

const tails = new Map<string, Promise<void>>();

/** Wait until earlier holders of `key` have released it, then hold it. Returns the (idempotent) release. */
export async function acquireKeyedMutex(key: string): Promise<() => void> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => held);
  tails.set(key, tail);
  await previous;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
    if (tails.get(key) === tail) tails.delete(key);
  };
}

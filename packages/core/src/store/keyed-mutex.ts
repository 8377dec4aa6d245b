// Why: writers in one process that target the same file queue here instead of polling the
// on-disk lock file, so in-process contention costs no sleeps. It is module-wide, so two store
// instances on the same tree also queue. Cross-process exclusion is the lock file's job.

const tails = new Map<string, Promise<void>>();

/**
 * Wait until every earlier holder of `key` has released it, then hold it. Returns the release
 * function (idempotent). FIFO per key; there is no timeout (holders always release in `finally`).
 */
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

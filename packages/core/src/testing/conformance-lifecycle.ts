// Why: both conformance suites (documents and records) need the same two pieces of plumbing: one
// fresh subject per test, closed and torn down after it, and an error-code assertion that works
// when the subject and the suite load different copies of RepomemError (ESM vs CJS bundles).
import type { ConformanceRunner } from './conformance-types.js';

/**
 * Register hooks that create a subject before each test and close and tear it down after it.
 * Returns the accessor of the running test's subject; `label` names it in the failure message.
 */
export function registerPerTestSubject<T extends { close(): Promise<void> }>(
  runner: ConformanceRunner,
  create: () => Promise<T>,
  teardown: ((subject: T) => Promise<void>) | undefined,
  label: string,
): () => T {
  let current: T | undefined;
  runner.beforeEach(async () => {
    current = await create();
  });
  runner.afterEach(async () => {
    const subject = current;
    current = undefined;
    if (subject === undefined) return;
    await subject.close();
    await teardown?.(subject);
  });
  return () => {
    if (current === undefined) throw new Error(`conformance: no ${label} (creating it failed?)`);
    return current;
  };
}

/** Assert `action` rejects with a repomem error (by name, across bundles) whose code is `code`. */
export async function expectRepomemErrorCode(
  expect: ConformanceRunner['expect'],
  action: () => Promise<unknown>,
  code: string,
): Promise<void> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a RepomemError with code ${code}`).toBeDefined();
  const error = caught as { name?: unknown; code?: unknown; message?: unknown };
  expect(error.name, `error name (message: ${String(error.message)})`).toBe('RepomemError');
  expect(error.code, `error code (message: ${String(error.message)})`).toBe(code);
}

// Why: the driver suite names the versions it writes (`v-one`) and expects to read them back; a
// driver that assigns versions of its own (git's blob and commit ids) stores others. This view
// translates both ways, so every check of the suite runs unchanged on such a driver: a label sent
// as `expected` becomes the version the driver stored for it, and a version read back or named
// in a conflict becomes the label it was written with.
import type { KitDriver, KitEntry } from '../kit/driver.js';

/** `driver` itself, or for a driver that `assignsVersions`, a view speaking the suite's version labels. */
export function labelVersions<D extends KitDriver>(driver: D): D {
  if (driver.assignsVersions !== true) return driver;
  const actualOf = new Map<string, string>();
  const labelOf = new Map<string, string>();
  const label = (version: string): string => labelOf.get(version) ?? version;
  const labelled = <E extends KitEntry | undefined>(entries: E[]): E[] =>
    entries.map((entry) => (entry === undefined ? entry : { ...entry, version: label(entry.version) }));
  return {
    ...driver,
    read: async (namespace, keys) => labelled(await driver.read(namespace, keys)),
    scan: async (namespace, options) => labelled(await driver.scan(namespace, options)),
    async write(changes, metadata) {
      const sent = changes.map((change) =>
        change.expected === undefined || change.expected === null
          ? change
          : { ...change, expected: actualOf.get(change.expected) ?? change.expected },
      );
      const result = await driver.write(sent, metadata);
      if (result.status === 'conflict') {
        return {
          status: 'conflict',
          conflicts: result.conflicts.map((conflict) =>
            conflict.actual === null ? conflict : { ...conflict, actual: label(conflict.actual) },
          ),
        };
      }
      changes.forEach((change, index) => {
        const stored = result.versions?.[index];
        if (typeof stored !== 'string' || change.version === null) return;
        actualOf.set(change.version, stored);
        labelOf.set(stored, change.version);
      });
      return { status: 'committed', versions: changes.map((change) => change.version) };
    },
  };
}

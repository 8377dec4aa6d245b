// Why: core refuses a path twin (`Notes.md` beside `notes.md`) before a batch reaches the driver,
// which alone would let two processes creating twins at the same moment both succeed; the store
// checks again inside its transaction, under the repository's row lock. Two stores on separate
// pools race to create twins: in every round exactly one wins and the other is refused.
import { isRepomemError } from '@repomem/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/index.js';
import { freshDatabase, freshSchema, noServer, skipReason, superuserFields } from './support.js';

const utf8 = new TextEncoder();

describe.skipIf(noServer)(`postgres path twins under the lock${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('twins');
  });

  it('of two writers creating twin paths at once, exactly one commits', async () => {
    const fields = { ...superuserFields(database), schema: freshSchema(), repo: 'acme/rocket' };
    const [one, two] = [await openPostgresStore(fields), await openPostgresStore(fields)];
    try {
      for (let round = 0; round < 12; round++) {
        const outcomes = await Promise.allSettled([
          one.write([{ kind: 'put', path: `r${round}/Notes.md`, content: utf8.encode('one\n') }]),
          two.write([{ kind: 'put', path: `r${round}/notes.md`, content: utf8.encode('two\n') }]),
        ]);
        const committed = outcomes.filter((o) => o.status === 'fulfilled' && o.value.status === 'committed');
        expect(committed).toHaveLength(1);
        const refused = outcomes.find((o) => o.status === 'rejected');
        expect(refused?.status === 'rejected' && isRepomemError(refused.reason, 'INVALID_PATH')).toBe(true);
        expect(await one.list(`r${round}/`)).toHaveLength(1);
      }
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

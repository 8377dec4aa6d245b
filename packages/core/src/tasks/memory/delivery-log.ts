// Why: GitHub redelivers webhooks, and anyone holding a captured delivery can send its exact
// bytes again. The `X-GitHub-Delivery` id of every delivery handled is kept in the store (so a
// restarted host still knows it), bounded: ids are hashed into 16 shard records of the
// repository's `receipt` kind (a delivery receipt; `:webhook-deliveries/<0-f>`, an id no task
// takes), each keeping its newest ids. No new record kind, so every task-record backend holds
// them as it is.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { TaskRecordBackend } from '../record-backend.js';
import { assertTaskRecordRepo } from '../record-rules.js';
import { updateRecord } from './record-update.js';

/** Delivery ids remembered per shard record (16 shards: the newest 4,096 deliveries or so). */
export const DELIVERIES_PER_SHARD = 256;

/** Id prefix of the delivery-log records (kind `receipt`). */
export const DELIVERY_LOG_ID_PREFIX = ':webhook-deliveries/';

const DeliveryLogSchema = z.object({ deliveries: z.array(z.string()) });

/** The hashed key of a delivery id (32 hex digits) and the record id of its shard. */
function keyOf(deliveryId: string): { key: string; id: string } {
  const key = createHash('sha256').update(deliveryId, 'utf8').digest('hex').slice(0, 32);
  return { key, id: `${DELIVERY_LOG_ID_PREFIX}${key[0]}` };
}

function idsOf(data: unknown): string[] {
  const parsed = DeliveryLogSchema.safeParse(data);
  return parsed.success ? parsed.data.deliveries : [];
}

/** Whether a delivery id is usable as a key (GitHub sends a GUID; anything 1-200 characters is kept). */
export function isDeliveryId(deliveryId: unknown): deliveryId is string {
  return typeof deliveryId === 'string' && deliveryId.trim() !== '' && deliveryId.length <= 200;
}

/** Whether the delivery `deliveryId` of `repo` was handled before (see {@link rememberDelivery}). */
export async function wasDelivered(backend: TaskRecordBackend, repo: string, deliveryId: string): Promise<boolean> {
  assertTaskRecordRepo(repo);
  const { key, id } = keyOf(deliveryId);
  const record = await backend.get(repo, 'receipt', id);
  return record !== undefined && idsOf(record.data).includes(key);
}

/**
 * Remember that the delivery `deliveryId` of `repo` was handled, so {@link wasDelivered} says
 * so from now on (in every process using the store). Each shard keeps its
 * {@link DELIVERIES_PER_SHARD} newest ids; an older delivery replayed after that is routed again,
 * which the outcome ordering (`recordEpisodeOutcome`'s `eventAt`) and rule de-duplication make
 * harmless. Returns `false` when it was already remembered.
 */
export async function rememberDelivery(
  backend: TaskRecordBackend,
  repo: string,
  deliveryId: string,
  now: () => Date = () => new Date(),
): Promise<boolean> {
  assertTaskRecordRepo(repo);
  const { key, id } = keyOf(deliveryId);
  const { changed } = await updateRecord(
    backend,
    { repo, kind: 'receipt', id },
    (current) => {
      const ids = current === undefined ? [] : idsOf(current.data);
      if (ids.includes(key)) return 'unchanged';
      return { text: '', data: { deliveries: [...ids, key].slice(-DELIVERIES_PER_SHARD) } };
    },
    now,
  );
  return changed;
}

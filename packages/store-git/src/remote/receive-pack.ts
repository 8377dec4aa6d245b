// Why: a push is one receive-pack exchange: "move <ref> from <old> to <new>" plus a pack of the
// objects the remote lacks. The server applies it only if the ref still holds <old> (its own
// compare-and-swap), which is what makes both the memory-branch retry loop and state-ref leases
// exact: a concurrent push turns into a rejection, never into a lost update.
import { RepomemError } from '@repomem/core';
import type { HttpClient } from 'isomorphic-git';
import * as git from 'isomorphic-git';
import type { GitFileSystem } from '../repository/file-system.js';
import { demuxSideBand, encodePktLine, FLUSH_PKT, packetText, readPackets } from './pkt-line.js';
import type { RemoteConnection } from './remote-target.js';
import { AGENT_CAPABILITY, callService } from './smart-http.js';

const ZERO_OID = '0'.repeat(40);

/** One ref update to push. */
export interface RemoteRefUpdate {
  /** Full ref name on the remote. */
  readonly ref: string;
  /** Id the remote ref must hold now (`null`: it must not exist). */
  readonly old: string | null;
  /** Id to set it to. */
  readonly next: string;
}

/** Outcome of {@link pushRefUpdate}. */
export type PushRefResult =
  | { readonly status: 'ok' }
  /** The server refused the update (it moved, or a rule forbids it); `reason` is the server's. */
  | { readonly status: 'rejected'; readonly reason: string };

/** Where the objects to push are read from. */
export interface PackSource {
  readonly fs: GitFileSystem;
  /** The repository's common git directory. */
  readonly commondir: string;
}

function parseReport(data: Uint8Array, ref: string, label: string): PushRefResult {
  const lines = readPackets(data)
    .packets.filter((packet): packet is Uint8Array => packet !== null)
    .map(packetText);
  const unpack = lines.find((line) => line.startsWith('unpack '));
  if (unpack !== undefined && unpack !== 'unpack ok') {
    throw new RepomemError(
      'BACKEND_UNAVAILABLE',
      `remote ${label} could not unpack the pushed objects: ${unpack.slice(7)}`,
      {
        details: { remote: label },
      },
    );
  }
  for (const line of lines) {
    if (line === `ok ${ref}`) return { status: 'ok' };
    if (line.startsWith(`ng ${ref} `)) return { status: 'rejected', reason: line.slice(`ng ${ref} `.length) };
  }
  throw new RepomemError('BACKEND_UNAVAILABLE', `remote ${label} did not report the status of ${ref}`, {
    details: { remote: label },
  });
}

/**
 * Push `update` with a pack of `objectIds`. Returns `rejected` when the server refuses the ref
 * update (for example because the ref no longer holds `update.old`). Throws `BACKEND_UNAVAILABLE`
 * on transport failures or when the server cannot store the objects.
 */
export async function pushRefUpdate(
  http: HttpClient,
  remote: RemoteConnection,
  advertised: ReadonlySet<string>,
  source: PackSource,
  update: RemoteRefUpdate,
  objectIds: readonly string[],
): Promise<PushRefResult> {
  const capabilities = ['report-status', 'side-band-64k'].filter((name) => advertised.has(name));
  capabilities.push(AGENT_CAPABILITY);
  const command = encodePktLine(`${update.old ?? ZERO_OID} ${update.next} ${update.ref}\0${capabilities.join(' ')}\n`);
  const { packfile } = await git.packObjects({
    fs: source.fs as unknown as git.PromiseFsClient,
    gitdir: source.commondir,
    oids: [...objectIds],
    write: false,
  });
  const response = await callService(http, remote, 'git-receive-pack', [
    command,
    FLUSH_PKT,
    packfile ?? new Uint8Array(),
  ]);
  if (!advertised.has('report-status')) return { status: 'ok' };
  if (advertised.has('side-band-64k')) {
    return parseReport(demuxSideBand(readPackets(response).packets).data, update.ref, remote.label);
  }
  return parseReport(response, update.ref, remote.label);
}

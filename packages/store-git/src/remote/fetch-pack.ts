// Why: fetching is one upload-pack exchange — want the remote tip, name recent local commits as
// haves, receive a self-contained pack — and installing that pack the way git does: written and
// indexed in a quarantine directory, then renamed into `objects/pack` (pack first, index last), so
// a reader never sees an index whose pack is incomplete.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { RepomemError } from '@repomem/core';
import type { HttpClient } from 'isomorphic-git';
import * as git from 'isomorphic-git';
import { type GitFileSystem, statIfExists, writeExclusive } from '../repository/file-system.js';
import { demuxSideBand, encodePktLine, FLUSH_PKT, type Packet, packetText, readPackets } from './pkt-line.js';
import type { RemoteConnection } from './remote-target.js';
import { AGENT_CAPABILITY, callService } from './smart-http.js';

/** Where fetched packs go. */
export interface PackDestination {
  readonly fs: GitFileSystem;
  /** The repository's common git directory (holding `objects/`). */
  readonly commondir: string;
  /** fsync the pack and index before publishing them. */
  readonly durable: boolean;
}

const WANTED_CAPABILITIES = ['side-band-64k', 'ofs-delta', 'no-progress'];

/** Build the upload-pack request body. */
function uploadPackRequest(
  wants: readonly string[],
  haves: readonly string[],
  advertised: ReadonlySet<string>,
): Uint8Array[] {
  const capabilities = [...WANTED_CAPABILITIES.filter((name) => advertised.has(name)), AGENT_CAPABILITY];
  const body: Uint8Array[] = [];
  wants.forEach((oid, index) => {
    body.push(encodePktLine(index === 0 ? `want ${oid} ${capabilities.join(' ')}\n` : `want ${oid}\n`));
  });
  body.push(FLUSH_PKT);
  for (const oid of haves) body.push(encodePktLine(`have ${oid}\n`));
  body.push(encodePktLine('done\n'));
  return body;
}

/** Take the pack out of an upload-pack response (after its ACK/NAK lines). */
function extractPack(response: Buffer, sideBand: boolean, label: string): Uint8Array {
  let offset = 0;
  for (;;) {
    if (offset + 4 > response.length) {
      throw new RepomemError('BACKEND_UNAVAILABLE', `remote ${label} sent no pack`, { details: { remote: label } });
    }
    if (response.toString('latin1', offset, offset + 4) === 'PACK') break;
    const next = readPackets(response, offset, () => true);
    const packet = next.packets[0];
    if (packet === undefined) break;
    const text = packet === null ? '' : packetText(packet);
    if (packet !== null && (text === 'NAK' || text.startsWith('ACK ') || text.startsWith('shallow '))) {
      offset = next.offset;
      continue;
    }
    if (packet !== null && text.startsWith('ERR ')) {
      throw new RepomemError('BACKEND_UNAVAILABLE', `remote ${label} refused the fetch: ${text.slice(4)}`, {
        details: { remote: label },
      });
    }
    break;
  }
  if (!sideBand) return response.subarray(offset);
  const { packets } = readPackets(response, offset);
  return demuxSideBand(packets.filter((packet): packet is Packet => packet !== undefined)).data;
}

async function installPack(destination: PackDestination, pack: Uint8Array): Promise<number> {
  const bytes = Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength);
  if (bytes.length < 32 || bytes.toString('latin1', 0, 4) !== 'PACK') {
    throw new RepomemError('BACKEND_UNAVAILABLE', 'the remote sent a malformed pack');
  }
  const count = bytes.readUInt32BE(8);
  if (count === 0) return 0;
  const name = `pack-${bytes.subarray(bytes.length - 20).toString('hex')}`;
  const { fs, commondir, durable } = destination;
  const packDir = join(commondir, 'objects', 'pack');
  if ((await statIfExists(fs, join(packDir, `${name}.idx`))) !== undefined) return count;
  const incoming = join(commondir, 'objects', `incoming-${randomBytes(6).toString('hex')}`);
  await fs.promises.mkdir(incoming, { recursive: true });
  try {
    await writeExclusive(fs, join(incoming, `${name}.pack`), bytes, { mode: 0o444, durable });
    await git.indexPack({
      fs: fs as unknown as git.PromiseFsClient,
      dir: incoming,
      gitdir: commondir,
      filepath: `${name}.pack`,
    });
    await fs.promises.mkdir(packDir, { recursive: true });
    await fs.promises.rename(join(incoming, `${name}.pack`), join(packDir, `${name}.pack`));
    await fs.promises.rename(join(incoming, `${name}.idx`), join(packDir, `${name}.idx`));
  } finally {
    for (const leftover of [`${name}.pack`, `${name}.idx`]) {
      await fs.promises.unlink(join(incoming, leftover)).catch(() => undefined);
    }
    await fs.promises.rmdir(incoming).catch(() => undefined);
  }
  return count;
}

/**
 * Fetch the objects of `wants` (advertised tips) into the repository, naming `haves` as commits
 * we already hold. Returns how many objects arrived. Throws `BACKEND_UNAVAILABLE` on transport
 * and protocol failures.
 */
export async function fetchPack(
  http: HttpClient,
  remote: RemoteConnection,
  advertised: ReadonlySet<string>,
  destination: PackDestination,
  wants: readonly string[],
  haves: readonly string[],
): Promise<number> {
  if (wants.length === 0) return 0;
  const response = await callService(http, remote, 'git-upload-pack', uploadPackRequest(wants, haves, advertised));
  const pack = extractPack(response, advertised.has('side-band-64k'), remote.label);
  return installPack(destination, pack);
}

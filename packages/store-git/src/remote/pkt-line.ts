// Why: git's wire protocol frames everything as pkt-lines (4 hex digits of length, then data;
// `0000` is a flush) and multiplexes pack data, progress and errors on side-band channels. This
// module is the one place those framings are written and read.
import { RepomemError } from '@repomem/core';

/** The flush packet `0000`. */
export const FLUSH_PKT = new Uint8Array([0x30, 0x30, 0x30, 0x30]);

const MAX_PKT_DATA = 65516;

/** Frame `data` (a string is UTF-8 encoded) as one pkt-line. */
export function encodePktLine(data: string | Uint8Array): Uint8Array {
  const payload = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (payload.byteLength > MAX_PKT_DATA) {
    throw new RepomemError('INVALID_ARGUMENT', `pkt-line payload too long (${payload.byteLength} bytes)`);
  }
  const frame = new Uint8Array(payload.byteLength + 4);
  frame.set(Buffer.from((payload.byteLength + 4).toString(16).padStart(4, '0'), 'latin1'), 0);
  frame.set(payload, 4);
  return frame;
}

/** One parsed packet: data, or a flush (`null`). */
export type Packet = Uint8Array | null;

function protocolError(message: string): RepomemError {
  return new RepomemError('BACKEND_UNAVAILABLE', `git server sent a malformed response: ${message}`);
}

/**
 * Split `bytes` into packets starting at `offset`, stopping at the end of the buffer or after the
 * first packet for which `stop` returns true. Returns the packets and the offset where parsing stopped.
 */
export function readPackets(
  bytes: Uint8Array,
  offset = 0,
  stop?: (packet: Packet) => boolean,
): { packets: Packet[]; offset: number } {
  const packets: Packet[] = [];
  let at = offset;
  while (at + 4 <= bytes.byteLength) {
    const header = Buffer.from(bytes.buffer, bytes.byteOffset + at, 4).toString('latin1');
    if (!/^[0-9a-f]{4}$/i.test(header)) throw protocolError(`bad pkt-line length ${JSON.stringify(header)}`);
    const length = Number.parseInt(header, 16);
    if (length === 0 || length === 1 || length === 2) {
      at += 4;
      packets.push(null);
      if (stop?.(null)) break;
      continue;
    }
    if (length < 4 || at + length > bytes.byteLength) throw protocolError('truncated pkt-line');
    const packet = bytes.subarray(at + 4, at + length);
    at += length;
    packets.push(packet);
    if (stop?.(packet)) break;
  }
  return { packets, offset: at };
}

/** A packet's data as text without its trailing newline. */
export function packetText(packet: Uint8Array): string {
  const text = Buffer.from(packet.buffer, packet.byteOffset, packet.byteLength).toString('utf8');
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** Data carried on the side-band channels of a response. */
export interface SideBandData {
  /** Channel 1: the payload (a pack, or report-status pkt-lines). */
  readonly data: Uint8Array;
  /** Channel 2: progress and remote messages. */
  readonly progress: string;
}

/** Demultiplex side-band packets; a channel 3 message is the server's fatal error and is thrown. */
export function demuxSideBand(packets: readonly Packet[]): SideBandData {
  const data: Uint8Array[] = [];
  let progress = '';
  for (const packet of packets) {
    if (packet === null || packet.byteLength === 0) continue;
    const channel = packet[0];
    const body = packet.subarray(1);
    if (channel === 1) data.push(body);
    else if (channel === 2) progress += Buffer.from(body).toString('utf8');
    else if (channel === 3) {
      throw new RepomemError('BACKEND_UNAVAILABLE', `git server error: ${Buffer.from(body).toString('utf8').trim()}`);
    } else throw protocolError(`unknown side-band channel ${channel}`);
  }
  return { data: Buffer.concat(data), progress };
}

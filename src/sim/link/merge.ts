// Mergeable sections (SHF_MERGE: `.rodata.str1.1`, `.rodata.cst16`): their pieces (strings with
// their NUL, or entsize entries) deduplicated across objects into one block, laid out as ld.lld
// lays it out: 32 shards chosen by the top 5 bits of the low 32 bits of each piece's XXH3-64
// hash (strings hashed without their terminator), input order within a shard, the shards one
// after the other (each aligned). So our bytes are lld's.
import { SHF, type ObjSection } from './object';
import { xxh3 } from './xxh3';

/** One piece of an input section: its offset there, and (after finishMerge) in the block. */
export interface Piece { inOff: number; size: number; outOff: number; shard: number }

export interface MergeBlock {
  /** Flags, entry size and (strings) alignment: sections with the same key share a block. */
  key: string;
  align: number;
  shards: { bytes: number[]; seen: Map<string, number> }[];
  /** The shards concatenated, once every member is in (finishMerge). */
  bytes: Uint8Array;
  /** Offset of the block in its output section. */
  offset: number;
}

const SHARDS = 32;

/** The bytes as a string, a map key (in chunks: a long string must not overflow the call stack). */
function keyOf(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 4096) s += String.fromCharCode(...b.subarray(i, i + 4096));
  return s;
}

export function newMergeBlock(key: string, align: number): MergeBlock {
  return { key, align, shards: Array.from({ length: SHARDS }, () => ({ bytes: [], seen: new Map() })), bytes: new Uint8Array(), offset: 0 };
}

/** Splits a section into pieces and adds the new ones to their shards; returns the section's pieces. */
export function mergeInto(m: MergeBlock, sec: ObjSection): Piece[] {
  const { data, entsize, flags, align } = sec;
  const pieces: Piece[] = [];
  let off = 0;
  while (off < data.length) {
    let end = off + entsize;
    if (flags & SHF.STRINGS) {
      while (end <= data.length && data.subarray(end - entsize, end).some((b) => b !== 0)) end += entsize;
      end = Math.min(end, data.length);
    }
    const bytes = data.subarray(off, end);
    const hashed = flags & SHF.STRINGS ? bytes.subarray(0, Math.max(0, bytes.length - entsize)) : bytes;
    const shardId = Number((xxh3(hashed) & 0xffffffffn) >> 27n);
    const shard = m.shards[shardId];
    const key = keyOf(bytes);
    let at = shard.seen.get(key);
    if (at === undefined) {
      while (shard.bytes.length % align) shard.bytes.push(0);
      at = shard.bytes.length;
      for (const b of bytes) shard.bytes.push(b);
      shard.seen.set(key, at);
    }
    // outOff is the offset in the shard until finishMerge adds the shard's start.
    pieces.push({ inOff: off, size: end - off, outOff: at, shard: shardId });
    off = end;
  }
  return pieces;
}

/** Concatenates the shards and makes the members' pieces block-relative. */
export function finishMerge(m: MergeBlock, members: Piece[][]): void {
  const starts: number[] = [];
  let size = 0;
  for (const sh of m.shards) {
    if (sh.bytes.length) size = Math.ceil(size / m.align) * m.align;
    starts.push(size);
    size += sh.bytes.length;
  }
  m.bytes = new Uint8Array(size);
  m.shards.forEach((sh, i) => m.bytes.set(sh.bytes, starts[i]));
  for (const pieces of members) for (const piece of pieces) piece.outOff += starts[piece.shard];
}

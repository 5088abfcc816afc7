// The bound on what a program may print (issue 39): a run keeps at most OUTPUT_LIMIT bytes of
// each output stream, the first half and the latest half, and counts the rest as dropped. The
// bytes are copied in as they are drained from the simulator (or read from a child process),
// never gathered first, so a program that prints for two billion cycles costs the host (the
// worker, the page, the CLI) at most the limit. The tail is kept because the harness prints its
// verdict last (`Runtime:`, `Errors:`); the head because the first lines say what went wrong.

/**
 * Bytes of a stream a run keeps: 1 MiB. An ordinary run prints far less (the harness's lines,
 * at most ten mismatches; --profileTiling a line per tile), a page shows 1 MiB of console text
 * without trouble, while a flood of hundreds of MB took Chromium's renderer to 4 GB and
 * "Page crashed" (issue 39).
 */
export const OUTPUT_LIMIT = 1 << 20;

/** Where bytes of output go: the simulator's console, a system call's buffer, a child's pipe. */
export interface OutputSink {
  write(src: Uint8Array, offset?: number, length?: number): void;
}

/** `12345 bytes of output dropped (limit 1048576 B: the first and the last 524288 B are kept)`: the run's summary and the console's note. */
export function droppedPhrase(dropped: number, limit = OUTPUT_LIMIT): string {
  return `${dropped} bytes of output dropped (limit ${limit} B: the first and the last ${limit / 2} B are kept)`;
}

/** The line in the kept text where bytes were dropped: `... <droppedPhrase> ...`. */
export function droppedNote(dropped: number, limit = OUTPUT_LIMIT): string {
  return `... ${droppedPhrase(dropped, limit)} ...`;
}

/** One stream's kept bytes: a head filled once, then a ring of the latest bytes. */
export class BoundedOutput implements OutputSink {
  private readonly head: Uint8Array;
  private headLen = 0;
  private readonly ring: Uint8Array;
  /** Where the oldest byte of the ring is, and how many it holds. */
  private ringStart = 0;
  private ringLen = 0;
  /** Every byte written, kept or not. */
  total = 0;

  constructor(readonly limit = OUTPUT_LIMIT) {
    if (!(limit >= 2) || limit % 2 !== 0) throw new RangeError(`output limit ${limit} must be an even number >= 2`);
    this.head = new Uint8Array(limit / 2);
    this.ring = new Uint8Array(limit / 2);
  }

  write(src: Uint8Array, offset = 0, length = src.length - offset): void {
    if (length <= 0) return;
    this.total += length;
    let o = offset, n = length;
    if (this.headLen < this.head.length) {
      const k = Math.min(n, this.head.length - this.headLen);
      this.head.set(src.subarray(o, o + k), this.headLen);
      this.headLen += k;
      o += k;
      n -= k;
    }
    if (n === 0) return;
    const cap = this.ring.length;
    if (n >= cap) {
      // Only the last `cap` bytes can stay.
      this.ring.set(src.subarray(o + n - cap, o + n), 0);
      this.ringStart = 0;
      this.ringLen = cap;
      return;
    }
    // Append after the newest byte, overwriting the oldest ones when full.
    let end = (this.ringStart + this.ringLen) % cap;
    const first = Math.min(n, cap - end);
    this.ring.set(src.subarray(o, o + first), end);
    this.ring.set(src.subarray(o + first, o + n), 0);
    end = (end + n) % cap;
    const len = Math.min(cap, this.ringLen + n);
    this.ringLen = len;
    this.ringStart = (end - len + cap) % cap;
  }

  /** Bytes written but not kept. */
  get dropped(): number { return this.total - this.headLen - this.ringLen; }

  /** The kept bytes in order: the head, then the ring (the two meet when nothing was dropped). */
  kept(): { head: Uint8Array; tail: Uint8Array } {
    const cap = this.ring.length;
    const tail = new Uint8Array(this.ringLen);
    const first = Math.min(this.ringLen, cap - this.ringStart);
    tail.set(this.ring.subarray(this.ringStart, this.ringStart + first), 0);
    tail.set(this.ring.subarray(0, this.ringLen - first), first);
    return { head: this.head.slice(0, this.headLen), tail };
  }

  /** The kept text; where bytes were dropped, a line saying how many (droppedNote) between the head and the tail. */
  text(): string {
    const { head, tail } = this.kept();
    return keptText(head, tail, this.dropped, this.limit);
  }
}

/** The text of a stream's kept head and tail, with droppedNote between them when `dropped` > 0. */
export function keptText(head: Uint8Array, tail: Uint8Array, dropped: number, limit = OUTPUT_LIMIT): string {
  const dec = new TextDecoder();
  if (dropped === 0) {
    const all = new Uint8Array(head.length + tail.length);
    all.set(head, 0);
    all.set(tail, head.length);
    return dec.decode(all);
  }
  const h = dec.decode(head);
  return `${h}${h.endsWith('\n') ? '' : '\n'}${droppedNote(dropped, limit)}\n${dec.decode(tail)}`;
}

// Line diffs for share links: a user's edit of a C file travels as the hunks that turn the
// generated text into theirs. A hunk carries a hash of the lines it replaces, so applying it to
// different generated code fails with a clear error instead of building something the sender
// never wrote.
//
// The diff is Myers' O(ND) algorithm in its linear-space form (the middle snake, divide and
// conquer): memory is linear in the two texts (two frontier arrays and one flag per line), never
// one frontier per edit step. Lines are interned to integers first, the common prefix and suffix
// are cut off before any search, and the search has a work budget: past it, what is left of a
// region is replaced wholesale (still exact: applying the hunks gives the new text, only not
// the smallest hunks), so no pair of texts can take more than a bounded time.

/** At line `at` (0-based, in the text the previous hunks produced), `del` lines whose hash is `hash` become `ins`. */
export type Hunk = [at: number, del: number, hash: string, ins: string[]];

/** What one file's edit may insert in a link (format.ts refuses more on the way in). */
export const EDIT_LIMITS = { lines: 20_000, bytes: 2 << 20 } as const;

/** FNV-1a over the lines (joined by newlines), 8 hex digits. */
export function linesHash(lines: readonly string[]): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < lines.length; i++) {
    const s = i ? `\n${lines[i]}` : lines[i]!;
    for (let k = 0; k < s.length; k++) { h ^= s.charCodeAt(k); h = Math.imul(h, 0x01000193); }
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Inner-loop steps (snake steps and diagonals visited) one diff may take before it settles for coarser hunks. */
const WORK_BUDGET = 30_000_000;

/**
 * Marks the lines of `a` deleted and of `b` inserted by a shortest (within the budget) edit
 * script: linear space. `ca[i]` / `cb[j]` become 1 for a changed line.
 */
function mark(a: Int32Array, b: Int32Array, ca: Uint8Array, cb: Uint8Array): void {
  const size = a.length + b.length + 3;
  // Frontiers indexed by diagonal + offset; allocated once, reused by every region.
  const vf = new Int32Array(2 * size + 1), vb = new Int32Array(2 * size + 1);
  const off = size;
  let work = 0;
  const wholesale = (a0: number, a1: number, b0: number, b1: number) => {
    ca.fill(1, a0, a1);
    cb.fill(1, b0, b1);
  };
  // An explicit stack of regions (no recursion depth to worry about).
  const stack: number[] = [0, a.length, 0, b.length];
  while (stack.length) {
    let b1 = stack.pop()!, b0 = stack.pop()!, a1 = stack.pop()!, a0 = stack.pop()!;
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) { a0++; b0++; }
    while (a0 < a1 && b0 < b1 && a[a1 - 1] === b[b1 - 1]) { a1--; b1--; }
    if (a0 === a1 || b0 === b1) { wholesale(a0, a1, b0, b1); continue; }
    if (work > WORK_BUDGET) { wholesale(a0, a1, b0, b1); continue; }
    // The middle snake of the region: a point on a shortest path that splits its edits in halves.
    const n = a1 - a0, m = b1 - b0, delta = n - m, odd = (delta & 1) !== 0;
    vf[off + 1] = 0;
    vb[off + 1] = n + 1;
    let sx = -1, sy = -1;
    search: for (let d = 0; d <= Math.ceil((n + m) / 2); d++) {
      if (work > WORK_BUDGET) break;
      for (let k = -d; k <= d; k += 2) {
        let x = k === -d || (k !== d && vf[off + k - 1]! < vf[off + k + 1]!) ? vf[off + k + 1]! : vf[off + k - 1]! + 1;
        let y = x - k;
        const x0 = x;
        while (x < n && y < m && y >= 0 && a[a0 + x] === b[b0 + y]) { x++; y++; }
        work += 1 + x - x0;
        vf[off + k] = x;
        const c = k - delta;
        if (odd && c >= -(d - 1) && c <= d - 1 && x >= vb[off + c]! && x <= n && y <= m) { sx = x; sy = x - k; break search; }
      }
      for (let c = -d; c <= d; c += 2) {
        const k = c + delta;
        let x = c === -d || (c !== d && vb[off + c + 1]! <= vb[off + c - 1]!) ? vb[off + c + 1]! - 1 : vb[off + c - 1]!;
        let y = x - k;
        const x0 = x;
        while (x > 0 && y > 0 && y <= m && a[a0 + x - 1] === b[b0 + y - 1]) { x--; y--; }
        work += 1 + x0 - x;
        vb[off + c] = x;
        if (!odd && k >= -d && k <= d && x <= vf[off + k]! && x >= 0 && y >= 0) { sx = x; sy = x - k; break search; }
      }
    }
    if (sx < 0 || (sx === 0 && sy === 0) || (sx === n && sy === m)) { wholesale(a0, a1, b0, b1); continue; }
    stack.push(a0 + sx, a1, b0 + sy, b1, a0, a0 + sx, b0, b0 + sy);
  }
}

/** The hunks turning `from` into `to` (both whole texts). */
export function diffLines(from: string, to: string): Hunk[] {
  const a = from.split('\n'), b = to.split('\n');
  // Lines as integers: comparisons in the search are of numbers.
  const ids = new Map<string, number>();
  const intern = (lines: string[]) => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      let id = ids.get(lines[i]!);
      if (id === undefined) { id = ids.size; ids.set(lines[i]!, id); }
      out[i] = id;
    }
    return out;
  };
  const ia = intern(a), ib = intern(b);
  const ca = new Uint8Array(a.length), cb = new Uint8Array(b.length);
  mark(ia, ib, ca, cb);
  const hunks: Hunk[] = [];
  let i = 0, j = 0, out = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && !ca[i] && !cb[j]) { i++; j++; out++; continue; }
    const di = i, dj = j;
    while (i < a.length && ca[i]) i++;
    while (j < b.length && cb[j]) j++;
    const ins = b.slice(dj, j);
    hunks.push([out, i - di, linesHash(a.slice(di, i)), ins]);
    out += ins.length;
  }
  return hunks;
}

/** Lines and bytes (UTF-16 code units) the hunks insert. */
export function insertedSize(hunks: readonly Hunk[]): { lines: number; bytes: number } {
  let lines = 0, bytes = 0;
  for (const h of hunks) { lines += h[3].length; for (const l of h[3]) bytes += l.length + 1; }
  return { lines, bytes };
}

/** Why the hunks are too large to carry in a link, or null. */
export function editTooLarge(hunks: readonly Hunk[], limits: { lines: number; bytes: number } = EDIT_LIMITS): string | null {
  const { lines, bytes } = insertedSize(hunks);
  if (lines > limits.lines) return `it inserts ${lines} lines, a link carries at most ${limits.lines}`;
  if (bytes > limits.bytes) return `it inserts ${bytes} characters, a link carries at most ${limits.bytes}`;
  return null;
}

/** `from` with the hunks applied; throws (a plain Error naming the line) if a hunk does not fit. */
export function applyHunks(from: string, hunks: readonly Hunk[]): string {
  let lines = from.split('\n');
  for (const [at, del, hash, ins] of hunks) {
    if (at < 0 || at + del > lines.length) throw new Error(`an edit at line ${at + 1} lies past the end of the file (${lines.length} lines)`);
    if (linesHash(lines.slice(at, at + del)) !== hash) throw new Error(`the lines the edit at line ${at + 1} replaces are not the ones it was made on`);
    // concat rather than splice(...ins): no argument list as long as the insert.
    lines = lines.slice(0, at).concat(ins, lines.slice(at + del));
  }
  return lines.join('\n');
}

// Line diffs for share links: a user's edit of a C file travels as the hunks that turn the
// generated text into theirs (Myers' O(ND) diff over lines). A hunk carries a hash of the lines
// it replaces, so applying it to different generated code fails with a clear error instead of
// building something the sender never wrote.

/** At line `at` (0-based, in the text the previous hunks produced), `del` lines whose hash is `hash` become `ins`. */
export type Hunk = [at: number, del: number, hash: string, ins: string[]];

/** FNV-1a over the lines (joined by newlines), 8 hex digits. */
export function linesHash(lines: readonly string[]): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < lines.length; i++) {
    const s = i ? `\n${lines[i]}` : lines[i]!;
    for (let k = 0; k < s.length; k++) { h ^= s.charCodeAt(k); h = Math.imul(h, 0x01000193); }
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The edit script from `a` to `b` as (kept, deleted, inserted) runs, by Myers' greedy algorithm. */
function script(a: readonly string[], b: readonly string[]): ('=' | '-' | '+')[] {
  const n = a.length, m = b.length, max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[max + k - 1]! < v[max + k + 1]!) ? v[max + k + 1]! : v[max + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[max + k] = x;
      if (x >= n && y >= m) { found = true; break; }
    }
  }
  // Walk back through the saved frontiers.
  const ops: ('=' | '-' | '+')[] = [];
  let x = n, y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!, k = x - y;
    const prevK = k === -d || (k !== d && vd[max + k - 1]! < vd[max + k + 1]!) ? k + 1 : k - 1;
    const px = vd[max + prevK]!, py = px - prevK;
    while (x > px && y > py) { ops.push('='); x--; y--; }
    if (d > 0) ops.push(x === px ? '+' : '-');
    x = px; y = py;
  }
  return ops.reverse();
}

/** The hunks turning `from` into `to` (both whole texts). */
export function diffLines(from: string, to: string): Hunk[] {
  const a = from.split('\n'), b = to.split('\n');
  const ops = script(a, b);
  const hunks: Hunk[] = [];
  let i = 0, j = 0, out = 0;
  for (let k = 0; k < ops.length;) {
    if (ops[k] === '=') { i++; j++; out++; k++; continue; }
    const at = out, di = i, dj = j;
    while (k < ops.length && ops[k] !== '=') { if (ops[k] === '-') i++; else j++; k++; }
    const ins = b.slice(dj, j);
    hunks.push([at, i - di, linesHash(a.slice(di, i)), ins]);
    out += ins.length;
  }
  return hunks;
}

/** `from` with the hunks applied; throws (a plain Error naming the line) if a hunk does not fit. */
export function applyHunks(from: string, hunks: readonly Hunk[]): string {
  const lines = from.split('\n');
  for (const [at, del, hash, ins] of hunks) {
    if (at < 0 || at + del > lines.length) throw new Error(`an edit at line ${at + 1} lies past the end of the file (${lines.length} lines)`);
    if (linesHash(lines.slice(at, at + del)) !== hash) throw new Error(`the lines the edit at line ${at + 1} replaces are not the ones it was made on`);
    lines.splice(at, del, ...ins);
  }
  return lines.join('\n');
}

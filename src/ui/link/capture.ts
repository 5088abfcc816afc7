// What the app shows now, as a share link's state: the model (a built-in by id; a dropped one
// inside the link when small, else by name and hash), the configuration, the workspace preset,
// the graph's passes and node, the code file and line, the timeline window, the pinned
// baseline, and the code pane's edits as diffs against the text they were made on.
import type { PlaygroundState } from '../store';
import { tutorialProgress } from '../tutorial/store';
import { diffLines, EDIT_LIMITS, editTooLarge, insertedSize, type Hunk } from './diff';
import { INLINE_MODEL_LIMIT, isLinkName, MAX_NAME, type LinkModel, type LinkState } from './format';

/** A name as a link can carry it: as it is, or (past the link's length limit, or not well-formed Unicode) cut and made well-formed. */
const linkName = (s: string): string => (isLinkName(s) ? s : s.slice(0, MAX_NAME).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd') || 'model');

const hashes = new WeakMap<Uint8Array, Promise<string>>();

/** SHA-256 of the bytes as hex (kept per buffer: a model is hashed once). */
export function sha256(bytes: Uint8Array): Promise<string> {
  let h = hashes.get(bytes);
  if (!h) {
    h = crypto.subtle.digest('SHA-256', bytes as BufferSource).then((d) => [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join(''));
    hashes.set(bytes, h);
  }
  return h;
}

async function modelOf(s: PlaygroundState): Promise<LinkModel | undefined> {
  const m = s.model;
  if (!m) return undefined;
  if (m.builtinId) return { kind: 'builtin', id: m.builtinId };
  const size = m.bytes.length + (m.inputs?.bytes.length ?? 0) + (m.outputs?.bytes.length ?? 0);
  if (size <= INLINE_MODEL_LIMIT) {
    const named = (x: { name: string; bytes: Uint8Array }) => ({ name: linkName(x.name), bytes: x.bytes });
    return { kind: 'inline', model: named(m), ...(m.inputs ? { inputs: named(m.inputs) } : {}), ...(m.outputs ? { outputs: named(m.outputs) } : {}) };
  }
  return { kind: 'file', name: linkName(m.name), sha256: await sha256(m.bytes), size: m.bytes.length };
}

/** Each file's last diff, by path: recomputed only when its base or text changes (not on every rewrite of the address). */
const diffs = new Map<string, { base: string; text: string; hunks: Hunk[] }>();

/** The hunks of one edited file, from the cache when neither text changed. */
export function editHunks(path: string, base: string, text: string): Hunk[] {
  const hit = diffs.get(path);
  if (hit && hit.base === base && hit.text === text) return hit.hunks;
  const hunks = diffLines(base, text);
  diffs.set(path, { base, text, hunks });
  return hunks;
}

/** What the last captured link had to leave out (edits too large to carry), for the Copy link note. */
let omitted: string[] = [];
export const linkOmissions = (): readonly string[] => omitted;

export async function captureLink(s: PlaygroundState): Promise<LinkState> {
  // The whole configuration: encodeLink leaves the defaults out.
  const state: LinkState = { config: { ...s.config } };
  const model = await modelOf(s);
  if (model) state.model = model;
  if (s.compiledConfig !== null) state.run = true;
  if (s.layout.preset) state.layout = s.layout.preset;
  const g = s.graph;
  // The overview (input against final graph) is what a compile opens on: its sides need no saying.
  const graph = {
    ...(g.left !== null && !g.overview ? { left: g.left } : {}),
    ...(g.right !== null && !g.overview ? { right: g.right } : {}),
    // A node whose name a link cannot carry (longer than its limit) is left unselected in the link.
    ...(g.selection && isLinkName(g.selection.node) ? { node: { ...g.selection } } : {}),
    ...(g.hideUnchanged ? { hide: true } : {}),
  };
  if (Object.keys(graph).length) state.graph = graph;
  if (s.code.file || s.code.line || s.code.asm) {
    state.code = { ...(s.code.file ? { file: s.code.file } : {}), ...(s.code.line ? { line: s.code.line } : {}), ...(s.code.asm ? { asm: true } : {}) };
  }
  if (s.timelineView) state.timeline = { t0: Math.round(s.timelineView.t0), t1: Math.round(s.timelineView.t1) };
  if (s.runBaseline?.config) state.baseline = { config: s.runBaseline.config, cycles: s.runBaseline.cycles, model: linkName(s.runBaseline.model) };
  // Tutorial progress, once a step passed (ordinary links stay short).
  const tutorial = tutorialProgress();
  if (tutorial.passed.length) state.tutorial = tutorial;
  if (s.ops.length) state.ops = s.ops;
  const edits = Object.entries(s.code.edits);
  for (const path of diffs.keys()) if (!(path in s.code.edits)) diffs.delete(path);
  // Edits within what a link may carry (per file and in all): larger ones are left out, and said so.
  const left: string[] = [];
  const budget = { lines: EDIT_LIMITS.lines, bytes: EDIT_LIMITS.bytes };
  const kept: [string, Hunk[]][] = [];
  for (const [path, e] of edits) {
    const hunks = editHunks(path, e.base, e.text);
    const why = editTooLarge(hunks, budget);
    if (why) { left.push(`the edit of ${path}: ${why}`); continue; }
    const size = insertedSize(hunks);
    budget.lines -= size.lines;
    budget.bytes -= size.bytes;
    kept.push([path, hunks]);
  }
  omitted = left;
  if (kept.length) state.edits = Object.fromEntries(kept);
  return state;
}

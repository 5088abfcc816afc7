// What the app shows now, as a share link's state: the model (a built-in by id; a dropped one
// inside the link when small, else by name and hash), the configuration, the workspace preset,
// the graph's passes and node, the code file and line, the timeline window, the pinned
// baseline, and the code pane's edits as diffs against the text they were made on.
import type { PlaygroundState } from '../store';
import { tutorialProgress } from '../tutorial/store';
import { diffLines } from './diff';
import { INLINE_MODEL_LIMIT, type LinkModel, type LinkState } from './format';

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
    return { kind: 'inline', model: { name: m.name, bytes: m.bytes }, ...(m.inputs ? { inputs: m.inputs } : {}), ...(m.outputs ? { outputs: m.outputs } : {}) };
  }
  return { kind: 'file', name: m.name, sha256: await sha256(m.bytes), size: m.bytes.length };
}

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
    ...(g.selection ? { node: { ...g.selection } } : {}),
    ...(g.hideUnchanged ? { hide: true } : {}),
  };
  if (Object.keys(graph).length) state.graph = graph;
  if (s.code.file || s.code.line || s.code.asm) {
    state.code = { ...(s.code.file ? { file: s.code.file } : {}), ...(s.code.line ? { line: s.code.line } : {}), ...(s.code.asm ? { asm: true } : {}) };
  }
  if (s.timelineView) state.timeline = { t0: Math.round(s.timelineView.t0), t1: Math.round(s.timelineView.t1) };
  if (s.runBaseline?.config) state.baseline = { config: s.runBaseline.config, cycles: s.runBaseline.cycles, model: s.runBaseline.model };
  // Tutorial progress, once a step passed (ordinary links stay short).
  const tutorial = tutorialProgress();
  if (tutorial.passed.length) state.tutorial = tutorial;
  if (s.ops.length) state.ops = s.ops;
  const edits = Object.entries(s.code.edits);
  if (edits.length) state.edits = Object.fromEntries(edits.map(([path, e]) => [path, diffLines(e.base, e.text)]));
  return state;
}

// The code pane's editor: one Monaco editor showing one model per generated file, with the
// layers' lines tracked as decorations (so links survive local edits), long initializers
// folded when a file first opens, and the selected layer highlighted. Loaded lazily with
// Monaco; the React pane drives it and hears back through EditorEvents. It reads no store.
import type { GeneratedFile, LayerCode } from '../../../compiler/codegen/types';
import type { Block, FoldRange } from './folds';
import { braceBlocks, defaultFolds, foldRanges } from './folds';
import type { NodeRange } from './layers';
import { anyVisible, nodeAtLine, rangesIn } from './layers';
import { monaco } from './monaco';

type Model = monaco.editor.ITextModel;

export interface EditorEvents {
  /** The user put the cursor on `line` of `file`, in the code of `node` (or of none). */
  onCursor(file: string, line: number, node: string | null): void;
  /** The text of `file` changed in the editor (typing, undo, a revert). */
  onText(file: string, text: string): void;
  /** A file was shown for the first time: how long until it was drawn with its folds. */
  onOpened(file: string, stats: OpenStats): void;
  /** The lines on screen changed. */
  onScroll(visible: { from: number; to: number }[]): void;
}

export interface OpenStats {
  ms: number;
  lines: number;
  /** Initializers folded by default, and the lines they hide. */
  folded: number;
  hidden: number;
}

interface Doc {
  file: GeneratedFile;
  model: Model;
  /** Layer decoration id -> its node. */
  layers: Map<string, string>;
  view: monaco.editor.ICodeEditorViewState | null;
  opened: boolean;
}

// Brace blocks of a model, recomputed only when its text changed: the folding provider and
// the default folds share them (the weights file is megabytes).
const blockCache = new WeakMap<Model, { version: number; blocks: Block[] }>();
function blocksOf(model: Model): Block[] {
  const v = model.getVersionId();
  let c = blockCache.get(model);
  if (!c || c.version !== v) {
    c = { version: v, blocks: braceBlocks(model.getValue()) };
    blockCache.set(model, c);
  }
  return c.blocks;
}

let providerRegistered = false;
function registerFolding(): void {
  if (providerRegistered) return;
  providerRegistered = true;
  monaco.languages.registerFoldingRangeProvider('c', {
    provideFoldingRanges: (model) => foldRanges(blocksOf(model)),
  });
}

const languageOf = (path: string) => (/\.[ch]$/.test(path) ? 'c' : 'plaintext');
const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

export class CodeEditor {
  private readonly editor: monaco.editor.IStandaloneCodeEditor;
  private readonly highlight: monaco.editor.IEditorDecorationsCollection;
  private readonly docs = new Map<string, Doc>();
  private layers: readonly LayerCode[] = [];
  private current: string | null = null;
  /** Set while the editor changes a model's text itself, so it is not reported as typing. */
  private syncing = false;
  private generation = 0;

  constructor(host: HTMLElement, private readonly events: EditorEvents) {
    registerFolding();
    this.editor = monaco.editor.create(host, {
      readOnly: true,
      readOnlyMessage: { value: 'Generated code is read-only: turn on Edit to change it here.' },
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 12,
      scrollBeyondLastLine: false,
      folding: true,
      showFoldingControls: 'always',
      renderLineHighlight: 'line',
      wordWrap: 'off',
      tabSize: 2,
      overviewRulerLanes: 2,
    });
    this.highlight = this.editor.createDecorationsCollection();
    this.editor.onDidChangeCursorPosition((e) => {
      if (!this.current || (e.source !== 'mouse' && e.source !== 'keyboard')) return;
      this.events.onCursor(this.current, e.position.lineNumber, nodeAtLine(this.layerRanges(this.current), e.position.lineNumber));
    });
    this.editor.onDidScrollChange(() => this.events.onScroll(this.visible()));
  }

  /** A new codegen result: its files replace the old ones; `text` gives each file's text (an edit, or the generated one). */
  setFiles(files: readonly GeneratedFile[], layers: readonly LayerCode[], text: (f: GeneratedFile) => string): void {
    this.editor.setModel(null);
    for (const d of this.docs.values()) d.model.dispose();
    this.docs.clear();
    this.current = null;
    this.layers = layers;
    this.generation++;
    for (const f of files) this.docs.set(f.path, { file: f, model: this.createModel(f, text(f)), layers: new Map(), view: null, opened: false });
  }

  private createModel(f: GeneratedFile, text: string): Model {
    const uri = monaco.Uri.from({ scheme: 'codegen', path: `/${this.generation}/${f.path}` });
    const model = monaco.editor.createModel(text, languageOf(f.path), uri);
    model.onDidChangeContent(() => {
      if (!this.syncing) this.events.onText(f.path, model.getValue());
    });
    return model;
  }

  /** Shows `path`; the first time, folds its long initializers and reports how long that took. */
  async show(path: string): Promise<void> {
    const doc = this.docs.get(path);
    if (!doc || this.current === path) return;
    const t0 = performance.now();
    if (this.current) {
      const prev = this.docs.get(this.current);
      if (prev) prev.view = this.editor.saveViewState();
    }
    this.current = path;
    this.highlight.clear();
    this.editor.setModel(doc.model);
    if (doc.layers.size === 0) this.trackLayers(doc);
    if (doc.view) this.editor.restoreViewState(doc.view);
    if (doc.opened) return;
    doc.opened = true;
    const folds = defaultFolds(blocksOf(doc.model));
    await this.fold(folds);
    await nextFrame();
    this.events.onOpened(path, {
      ms: performance.now() - t0, lines: doc.model.getLineCount(), folded: folds.length,
      hidden: folds.reduce((s, f) => s + f.end - f.start, 0),
    });
  }

  /** Folds the ranges starting at these lines, once the folding model has the file's ranges. */
  private async fold(folds: readonly FoldRange[]): Promise<void> {
    if (folds.length === 0) return;
    const pos = this.editor.getPosition();
    // editor.fold takes 0-based start lines; it waits for the folding ranges of the model.
    await this.editor.getAction('editor.fold')?.run({ selectionLines: folds.map((f) => f.start - 1) });
    if (pos) this.editor.setPosition(pos);
  }

  /** Layers' lines as decorations: Monaco moves them with edits; a thin gutter mark shows linked code. */
  private trackLayers(doc: Doc): void {
    const ranges = rangesIn(this.layers, doc.file.path);
    const ids = doc.model.deltaDecorations([], ranges.map((r) => ({
      range: new monaco.Range(r.from, 1, r.to, 1),
      options: {
        description: 'dpg-layer', isWholeLine: true, linesDecorationsClassName: 'code-layer-mark',
        stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
      },
    })));
    ids.forEach((id, i) => doc.layers.set(id, ranges[i]!.node));
  }

  /** The layers' ranges in `path` where they are now (after any edits). */
  layerRanges(path: string): NodeRange[] {
    const doc = this.docs.get(path);
    if (!doc) return [];
    if (doc.layers.size === 0) return rangesIn(this.layers, path);
    const out: NodeRange[] = [];
    for (const [id, node] of doc.layers) {
      const r = doc.model.getDecorationRange(id);
      if (r) out.push({ node, from: r.startLineNumber, to: r.endLineNumber });
    }
    return out.sort((a, b) => a.from - b.from);
  }

  /**
   * Highlights the code of `nodes` in the file shown and, unless some of it is on screen
   * already (the user just clicked there), scrolls the first range to the middle.
   */
  highlightNodes(nodes: readonly string[]): NodeRange[] {
    if (!this.current) return [];
    const wanted = new Set(nodes);
    const ranges = this.layerRanges(this.current).filter((r) => wanted.has(r.node));
    this.highlight.set(ranges.map((r) => ({
      range: new monaco.Range(r.from, 1, r.to, 1),
      options: {
        description: 'dpg-selected', isWholeLine: true, className: 'code-hl', linesDecorationsClassName: 'code-hl-mark',
        overviewRuler: { color: '#2f6fdf', position: monaco.editor.OverviewRulerLane.Full },
      },
    })));
    const first = ranges[0];
    if (first && !anyVisible(ranges, this.visible())) this.editor.revealLinesInCenter(first.from, first.to, monaco.editor.ScrollType.Immediate);
    return ranges;
  }

  /** The line spans on screen. */
  visible(): { from: number; to: number }[] {
    return this.editor.getVisibleRanges().map((r) => ({ from: r.startLineNumber, to: r.endLineNumber }));
  }

  setReadOnly(readOnly: boolean): void {
    this.editor.updateOptions({ readOnly });
  }

  /** Makes a file's text `text` if it is not (a revert), as one undoable edit. */
  syncText(path: string, text: string): void {
    const doc = this.docs.get(path);
    if (!doc || doc.model.getValue() === text) return;
    this.syncing = true;
    try {
      doc.model.pushEditOperations([], [{ range: doc.model.getFullModelRange(), text }], () => null);
    } finally {
      this.syncing = false;
    }
    // Replacing the whole text collapsed the layers' decorations: place them anew.
    doc.model.deltaDecorations([...doc.layers.keys()], []);
    doc.layers.clear();
    this.trackLayers(doc);
    this.events.onText(path, text);
  }

  dispose(): void {
    this.editor.dispose();
    for (const d of this.docs.values()) d.model.dispose();
    this.docs.clear();
  }
}

// The code pane's editor: one Monaco editor showing one model per generated file, with the
// layers' lines tracked as decorations (so links survive local edits), long initializers
// folded when a file first opens, and the selected layer highlighted. Loaded lazily with
// Monaco; the React pane drives it and hears back through EditorEvents. It reads no store.
import type { LayerCode } from '../../../compiler/codegen/types';
import type { CodeFile, CompileErrorAt } from './state';
import type { Block, FoldRange } from './folds';
import { braceBlocks, defaultFolds, foldRanges } from './folds';
import type { FileHeat } from './heat';
import { fmtCycles, fmtShare, heatLevel, HEAT_LEVELS, maxCycles } from './heat';
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
  file: CodeFile;
  /** Created when the file is first shown: a result has megabytes of data files nobody may open. */
  model: Model | null;
  /** Its text until then. */
  text: string;
  /** Layer decoration id -> its node. */
  layers: Map<string, string>;
  view: monaco.editor.ICodeEditorViewState | null;
  /** Its cycle heat and assembly link decorations (ids). */
  heat: string[];
  links: string[];
}

/** The run's cycle heat as the editor shows it: a gutter mark per line, the numbers too when `labels`. */
export interface HeatView {
  heat: FileHeat;
  /** The code changed since the run: the marks are greyed. */
  stale: boolean;
  labels: boolean;
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
/** The folding contribution's key in a view state. */
const FOLDING = 'editor.contrib.folding';
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
  /** The last build's compile error, marked in its file. */
  private marker: CompileErrorAt | null = null;
  private heat: HeatView | null = null;
  /** The assembly view's colours: per file, per line, the palette index. */
  private links: ReadonlyMap<string, ReadonlyMap<number, number>> = new Map();
  private readonly focus: monaco.editor.IEditorDecorationsCollection;

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
    this.focus = this.editor.createDecorationsCollection();
    this.editor.onDidChangeCursorPosition((e) => {
      if (!this.current || (e.source !== 'mouse' && e.source !== 'keyboard')) return;
      this.events.onCursor(this.current, e.position.lineNumber, nodeAtLine(this.layerRanges(this.current), e.position.lineNumber));
    });
    this.editor.onDidScrollChange(() => this.events.onScroll(this.visible()));
  }

  /** A new codegen result: its files replace the old ones; `text` gives each file's text (an edit, or the generated one). */
  setFiles(files: readonly CodeFile[], layers: readonly LayerCode[], text: (f: CodeFile) => string): void {
    this.editor.setModel(null);
    for (const d of this.docs.values()) d.model?.dispose();
    this.docs.clear();
    this.current = null;
    this.layers = layers;
    this.generation++;
    for (const f of files) this.docs.set(f.path, { file: f, model: null, text: text(f), layers: new Map(), view: null, heat: [], links: [] });
  }

  private createModel(f: CodeFile, text: string): Model {
    const uri = monaco.Uri.from({ scheme: 'codegen', path: `/${this.generation}/${f.path}` });
    const model = monaco.editor.createModel(text, languageOf(f.path), uri);
    model.onDidChangeContent(() => {
      if (!this.syncing) this.events.onText(f.path, model.getValue());
    });
    return model;
  }

  /** Shows `path`; the first time, with its long initializers folded, and says how long that took. */
  show(path: string): void {
    const doc = this.docs.get(path);
    if (!doc || this.current === path) return;
    const t0 = performance.now();
    if (this.current) {
      const prev = this.docs.get(this.current);
      if (prev) prev.view = this.editor.saveViewState();
    }
    this.current = path;
    this.highlight.clear();
    this.focus.clear();
    const first = doc.model === null;
    if (!doc.model) {
      doc.model = this.createModel(doc.file, doc.text);
      this.applyMarker(doc);
      this.applyHeat(doc);
      this.applyLinks(doc);
    }
    this.editor.setModel(doc.model);
    if (!first) {
      if (doc.view) this.editor.restoreViewState(doc.view);
      this.revealMarker();
      return;
    }
    this.trackLayers(doc);
    const folds = defaultFolds(blocksOf(doc.model));
    this.foldAtOnce(folds);
    this.revealMarker();
    void nextFrame().then(() => this.events.onOpened(path, {
      ms: performance.now() - t0, lines: doc.model!.getLineCount(), folded: folds.length,
      hidden: folds.reduce((s, f) => s + f.end - f.start, 0),
    }));
  }

  /**
   * Folds these ranges before the file is first drawn. The fold command would wait for the
   * folding provider, which Monaco runs after a debounce of 200 ms or more: the weights file
   * would show unfolded, 34,000 lines, then jump. Restoring a view state whose folding memento
   * lists them collapses them at once (as Monaco restores folds when a file reopens); the
   * provider's ranges, when they come, keep that state.
   */
  private foldAtOnce(folds: readonly FoldRange[]): void {
    if (folds.length === 0) return;
    const view = this.editor.saveViewState();
    if (!view) return;
    const collapsedRegions = folds.map((f) => ({ startLineNumber: f.start, endLineNumber: f.end, isCollapsed: true }));
    this.editor.restoreViewState({
      ...view,
      contributionsState: { ...view.contributionsState, [FOLDING]: { collapsedRegions, lineCount: this.editor.getModel()!.getLineCount() } },
    });
  }

  /** Layers' lines as decorations: Monaco moves them with edits; a thin gutter mark shows linked code. */
  private trackLayers(doc: Doc): void {
    if (!doc.model) return;
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
    if (!doc.model) return rangesIn(this.layers, path);
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

  /**
   * Marks a compile error at its line and column in its file (or clears the mark): a Monaco
   * marker, as a language server's error would be; the file shown reveals it.
   */
  setMarker(at: CompileErrorAt | null): void {
    this.marker = at;
    for (const d of this.docs.values()) this.applyMarker(d);
    this.revealMarker();
  }

  private applyMarker(doc: Doc): void {
    if (!doc.model) return;
    const at = this.marker?.file === doc.file.path ? this.marker : null;
    const line = at ? Math.min(Math.max(1, at.line), doc.model.getLineCount()) : 1;
    monaco.editor.setModelMarkers(doc.model, 'dpg-cc', at ? [{
      severity: monaco.MarkerSeverity.Error, message: at.message, source: 'dpg-cc',
      startLineNumber: line, startColumn: at.col, endLineNumber: line, endColumn: Math.max(at.col + 1, doc.model.getLineMaxColumn(line)),
    }] : []);
  }

  private revealMarker(): void {
    const at = this.marker;
    if (at && at.file === this.current) this.editor.revealLineInCenter(at.line, monaco.editor.ScrollType.Immediate);
  }

  /** The markers now, as file:line:col (for tests and the pane's attributes). */
  markers(): string[] {
    return monaco.editor.getModelMarkers({ owner: 'dpg-cc' }).map((m) => {
      const doc = [...this.docs.values()].find((d) => d.model?.uri.toString() === m.resource.toString());
      return `${doc?.file.path ?? '?'}:${m.startLineNumber}:${m.startColumn}`;
    });
  }

  /** Shows the run's cycles per line (null: none): a gutter mark whose colour says how hot, the numbers on hover (and after the line with `labels`). */
  setHeat(view: HeatView | null): void {
    this.heat = view;
    this.editor.updateOptions({ glyphMargin: view !== null });
    for (const d of this.docs.values()) this.applyHeat(d);
  }

  private applyHeat(doc: Doc): void {
    if (!doc.model) return;
    const model = doc.model;
    const lines = this.heat?.heat.files.get(doc.file.path);
    const decorations: monaco.editor.IModelDeltaDecoration[] = [];
    if (this.heat && lines) {
      const { heat, stale, labels } = this.heat;
      const max = maxCycles(lines);
      const count = model.getLineCount();
      for (const [line, c] of lines) {
        if (line > count) continue;
        const level = heatLevel(c.cycles, max);
        const what = `${fmtCycles(c.cycles)} cycles (${fmtShare(c.cycles, heat.total)} of all cores' cycles), ${fmtShare(c.stalls, c.cycles)} of them stalls`;
        decorations.push({
          range: new monaco.Range(line, 1, line, 1),
          options: {
            isWholeLine: true,
            glyphMarginClassName: `dpg-line-heat dpg-heat-${level}${stale ? ' dpg-heat-stale' : ''}`,
            glyphMarginHoverMessage: { value: `Line ${line}: ${what}${stale ? ' — from the last run, before the code changed' : ''}` },
            overviewRuler: level > HEAT_LEVELS / 2 ? { color: stale ? '#bbbbbb' : '#e0662b', position: monaco.editor.OverviewRulerLane.Left } : null,
            stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
          },
        });
        if (labels) {
          const end = model.getLineMaxColumn(line);
          decorations.push({
            range: new monaco.Range(line, end, line, end),
            options: {
              showIfCollapsed: true,
              after: {
                content: `  ${fmtCycles(c.cycles)} cyc${c.stalls ? `, ${fmtShare(c.stalls, c.cycles)} stalls` : ''}`,
                inlineClassName: `dpg-line-heat-label dpg-heat-label-${level}${stale ? ' dpg-heat-stale' : ''}`,
              },
              stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
            },
          });
        }
      }
    }
    doc.heat = model.deltaDecorations(doc.heat, decorations);
  }

  /** Paints the lines of the function shown in the assembly view with its rows' colours (per file, line -> palette index). */
  setLinks(links: ReadonlyMap<string, ReadonlyMap<number, number>>): void {
    this.links = links;
    for (const d of this.docs.values()) this.applyLinks(d);
  }

  private applyLinks(doc: Doc): void {
    if (!doc.model) return;
    const count = doc.model.getLineCount();
    const lines = [...(this.links.get(doc.file.path) ?? [])].filter(([line]) => line <= count);
    doc.links = doc.model.deltaDecorations(doc.links, lines.map(([line, colour]) => ({
      range: new monaco.Range(line, 1, line, 1),
      options: { isWholeLine: true, className: `asm-link asm-c${colour}`, stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges },
    })));
  }

  /**
   * Marks `line` of the file shown as the one an assembly row comes from (null: none) and
   * scrolls it into view unless it is on screen.
   */
  focusLine(line: number | null): void {
    const model = this.editor.getModel();
    if (line === null || !model || line > model.getLineCount()) {
      this.focus.clear();
      return;
    }
    this.focus.set([{
      range: new monaco.Range(line, 1, line, 1),
      options: {
        isWholeLine: true, className: 'asm-focus', linesDecorationsClassName: 'asm-focus-mark',
        overviewRuler: { color: '#7a3fd1', position: monaco.editor.OverviewRulerLane.Full },
      },
    }]);
    this.editor.revealLineInCenterIfOutsideViewport(line, monaco.editor.ScrollType.Smooth);
  }

  /** Puts the cursor on `line` of the file shown, in the middle of the view. */
  revealLine(line: number): void {
    const model = this.editor.getModel();
    if (!model || line < 1 || line > model.getLineCount()) return;
    this.editor.setPosition({ lineNumber: line, column: 1 });
    this.editor.revealLineInCenter(line, monaco.editor.ScrollType.Immediate);
  }

  setReadOnly(readOnly: boolean): void {
    this.editor.updateOptions({ readOnly });
  }

  /** Makes a file's text `text` if it is not (a revert), as one undoable edit. */
  syncText(path: string, text: string): void {
    const doc = this.docs.get(path);
    if (!doc) return;
    if (!doc.model) {
      doc.text = text;
      return;
    }
    if (doc.model.getValue() === text) return;
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
    this.applyHeat(doc);
    this.applyLinks(doc);
    this.events.onText(path, text);
  }

  dispose(): void {
    this.editor.dispose();
    for (const d of this.docs.values()) d.model?.dispose();
    this.docs.clear();
  }
}

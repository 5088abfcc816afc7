// The code pane: the codegen stage's files and the kernel library / runtime the program is built
// with, in tabs, in Monaco (loaded lazily, the first time there is code to show), with C
// highlighting, long constant arrays folded, an Edit mode whose edits Compile & run and Run
// build and run, compile errors marked at their line, and links both ways with the graph: the
// selected node's code is highlighted and revealed; putting the cursor in a layer's code selects
// its node. Its state (file shown, editing, edits) lives in the store: see code/state.ts.
// After a profiled run: each line's cycles in the gutter, and the Assembly view beside the
// editor (code/AsmPanel.tsx), its rows and C lines linked by colour and both ways.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CodegenResult } from '../../compiler/codegen/types';
import type { RunResult } from '../../sim/run/types';
import type { StageView } from '../stageViews';
import { isRunStale, useStore } from '../store';
import { recordEdit, showFile, showFunction, takeReveal } from './code/actions';
import type { AsmRow } from './code/asm';
import { defaultFunction, functionRows, functionsAtLine, kernelFunction, rankFunctions, sourceResolver } from './code/asm';
import { AsmPanel, type AsmContent } from './code/AsmPanel';
import { editorColours, linkColours } from './code/colours';
import { lineHeat } from './code/heat';
import { FileTabs, LayerLine, Tools } from './code/Chrome';
import type { CodeEditor, OpenStats } from './code/editor';
import type { NodeRange } from './code/layers';
import { codeOf, finalNodes } from './code/layers';
import { codeNote } from './code/note';
import { compileErrorAt, shownFile, type CodeFile } from './code/state';
import { paneData, select, usePaneData } from './graph/actions';
import './code/code.css';

export function CodePane() {
  const stages = useStore((s) => s.stages);
  const hasModel = useStore((s) => s.model !== null);
  const note = codeNote(stages, hasModel);
  const result = stages.codegen.result;
  if (note !== null || !result)
    return (
      <section className="pane pane-code" data-testid="pane-code">
        <p className="placeholder" data-testid="code-note" data-status={stages.codegen.status}>{note}</p>
      </section>
    );
  return <CodeView result={result} />;
}

type Load = { state: 'loading' } | { state: 'ready'; editor: CodeEditor } | { state: 'failed'; message: string };

const span = (r: { from: number; to: number }) => `${r.from}-${r.to}`;

type SourceLine = { file: string; line: number };

/** Why the assembly view has nothing to show. */
function noAssembly(run: StageView<'run'>): string {
  if (run.result) return `This run was built by ${run.result.compiler}, not by the playground's compiler: there is no assembly to show.`;
  if (run.status === 'running') return 'Running… the assembly and the cycles come with the run.';
  if (run.status === 'error') return 'The program did not build or run: no assembly to show.';
  return 'Run the program (Compile & run) to see its assembly and where its cycles go.';
}

function CodeView({ result }: { result: CodegenResult }) {
  const code = useStore((s) => s.code);
  const selection = useStore((s) => s.graph.selection);
  const runError = useStore((s) => (s.stages.run.status === 'error' ? s.stages.run.error : undefined));
  const [library, setLibrary] = useState<CodeFile[]>([]);
  const [markers, setMarkers] = useState('');
  const { snapshots } = usePaneData();
  const host = useRef<HTMLDivElement>(null);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [opened, setOpened] = useState<Record<string, OpenStats>>({});
  const [highlighted, setHighlighted] = useState<NodeRange[]>([]);
  const [visible, setVisible] = useState<{ from: number; to: number }[]>([]);
  const files: CodeFile[] = useMemo(() => [...result.files, ...library], [result, library]);
  const file = shownFile(files, code.file)!;
  // The editor's callbacks outlive renders: they read the latest files through this ref.
  const latest = useRef({ result, file, files });
  latest.current = { result, file, files };

  // The run's program and profile: the gutter's heat, the assembly view.
  const runView = useStore((s) => s.stages.run);
  const runStale = useStore(isRunStale);
  const run: RunResult | undefined = runView.result;
  const program = run?.program, profile = run?.profile;
  const resolve = useMemo(() => sourceResolver(files.map((f) => f.path)), [files]);
  const ranked = useMemo(() => (program ? rankFunctions(program, profile?.heat) : []), [program, profile]);
  const heat = useMemo(() => (program && profile ? lineHeat(program, profile.heat, resolve) : null), [program, profile, resolve]);
  const [cursor, setCursor] = useState<SourceLine | null>(null);
  const [hovered, setHovered] = useState<SourceLine | null>(null);
  const [pinned, setPinned] = useState<SourceLine | null>(null);
  const fn = useMemo(() => (program && code.asm ? defaultFunction(program, ranked, code.asmFunction, file.path, resolve) : undefined),
    [program, ranked, code.asmFunction, file.path, resolve, code.asm]);
  // The assembly view's share of the width (the splitter between it and the editor moves it).
  const [asmShare, setAsmShare] = useState(0.5);
  const split = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => (program && fn ? functionRows(program, fn, profile?.heat, resolve) : []), [program, fn, profile, resolve]);
  const colours = useMemo(() => linkColours(rows), [rows]);

  // Monaco loads here, the first time the pane has code to show (a chunk of its own).
  useEffect(() => {
    let alive = true;
    let editor: CodeEditor | null = null;
    // The library's sources come with the editor (a chunk of their own, like Monaco's).
    Promise.all([import('./code/editor'), import('../../sim/run/sources')]).then(([{ CodeEditor }, { LIBRARY_SOURCES }]) => {
      if (!alive || !host.current) return;
      setLibrary([...LIBRARY_SOURCES].map(([path, content]) => ({ path, content, kind: 'library' as const })));
      editor = new CodeEditor(host.current, {
        onCursor: (path, line, node) => {
          setCursor({ file: path, line });
          useStore.setState((s) => ({ code: { ...s.code, line } }));
          if (!node) return;
          const s = useStore.getState();
          const snaps = paneData(s).snapshots;
          // Inside the code already shown for the selection: keep the selection as it is.
          if (finalNodes(snaps, s.graph.selection).includes(node)) return;
          select({ snapshot: snaps.length - 1, node });
        },
        onText: (path, text) => {
          const f = latest.current.files.find((x) => x.path === path);
          if (f) recordEdit(path, text, f.content);
        },
        onOpened: (path, stats) => setOpened((o) => ({ ...o, [path]: stats })),
        onScroll: (v) => setVisible((old) => (old.map(span).join() === v.map(span).join() ? old : v)),
      });
      setLoad({ state: 'ready', editor });
    }).catch((err: unknown) => {
      if (alive) setLoad({ state: 'failed', message: err instanceof Error ? err.message : String(err) });
    });
    return () => {
      alive = false;
      editor?.dispose();
    };
  }, []);
  const editor = load.state === 'ready' ? load.editor : null;

  // The code of the selected node: highlighted in the file shown, revealed unless on screen.
  const highlight = () => {
    if (!editor) return;
    const s = useStore.getState();
    const ranges = editor.highlightNodes(finalNodes(paneData(s).snapshots, s.graph.selection));
    setHighlighted(ranges);
    setVisible(editor.visible());
  };

  useEffect(() => {
    if (!editor) return;
    const edits = useStore.getState().code.edits;
    editor.setFiles(files, result.layers, (f) => edits[f.path]?.text ?? f.content);
    setOpened({});
  }, [editor, result, library]);

  // The last build's compile error, marked at its line (cleared by the next build).
  useEffect(() => {
    if (!editor) return;
    editor.setMarker(compileErrorAt(runError));
    setMarkers(editor.markers().join(','));
  }, [editor, files, runError, file.path]);

  useEffect(() => {
    if (!editor) return;
    editor.show(file.path);
    highlight();
    // A line a link asked for: revealed once, when its file is shown.
    const line = takeReveal(file.path);
    if (line) editor.revealLine(line);
  }, [editor, files, file.path]);

  useEffect(() => editor?.setReadOnly(!code.editing), [editor, code.editing]);

  // The store's edits drive the editor's text: a revert there puts the generated text back.
  const synced = useRef(code.edits);
  useEffect(() => {
    if (!editor) return;
    const before = synced.current;
    synced.current = code.edits;
    for (const f of files)
      if (before[f.path] !== code.edits[f.path]) editor.syncText(f.path, code.edits[f.path]?.text ?? f.content);
  }, [editor, code.edits, files]);

  // A new selection: switch to the file holding its code (the highlight follows the switch).
  useEffect(() => {
    if (!editor) return;
    const where = codeOf(result.layers, finalNodes(snapshots, selection), latest.current.file.path);
    if (where && where.file !== latest.current.file.path) showFile(where.file);
    else highlight();
  }, [editor, selection, snapshots, result]);

  // The run's cycles per line in the gutter; their numbers too while the assembly is open.
  useEffect(() => editor?.setHeat(heat ? { heat, stale: runStale, labels: code.asm } : null), [editor, heat, runStale, code.asm]);
  // The C lines of the function shown, in its rows' colours.
  useEffect(() => editor?.setLinks(code.asm ? editorColours(rows, colours) : new Map()), [editor, rows, colours, code.asm]);
  // The C line of the row hovered (else of the row clicked), when in the file shown.
  const focus = (hovered?.file === file.path ? hovered : null) ?? (pinned?.file === file.path ? pinned : null);
  useEffect(() => editor?.focusLine(focus?.line ?? null), [editor, file.path, focus?.line, files]);
  // A layer selected (here, in the graph, in the Run pane): show its kernel's function.
  const selectionSeen = useRef(false);
  useEffect(() => {
    // Not the selection the pane mounted with: the function shown then is the one the user had.
    const fresh = selectionSeen.current;
    selectionSeen.current = true;
    if (!fresh || !program || !code.asm) return;
    const wanted = new Set(finalNodes(snapshots, selection));
    const k = kernelFunction(ranked, result.layers.filter((l) => wanted.has(l.node)).flatMap((l) => l.calls));
    if (k) showFunction(k);
  }, [selection, snapshots]);
  // The cursor on a C line another function holds: show that one (the hottest of them). After
  // the selection's: a click in a layer's code selects the layer and shows the line's function.
  useEffect(() => {
    if (!cursor || !program || !code.asm) return;
    const fns = functionsAtLine(program, resolve, cursor.file, cursor.line, ranked);
    // The function shown now (the selection's effect may just have changed it).
    const now = useStore.getState().code.asmFunction ?? fn;
    if (fns.length > 0 && !fns.some((f) => f.addr === now?.addr && f.name === now.name)) showFunction(fns[0]!);
  }, [cursor]);

  const hoverRow = useCallback((r: AsmRow | null) => setHovered(r?.file && r.inPane ? { file: r.file, line: r.line } : null), []);
  const clickRow = useCallback((r: AsmRow) => {
    if (!r.file || !r.inPane) return;
    setPinned({ file: r.file, line: r.line });
    showFile(r.file);
  }, []);
  const asm: AsmContent = program && fn
    ? { kind: 'rows', fn, rows, ranked, colours, total: heat?.total ?? 0, profiled: profile !== undefined }
    : { kind: 'none', message: noAssembly(runView) };

  const nodes = useMemo(() => [...new Set(highlighted.map((r) => r.node))], [highlighted]);
  const layers = result.layers.filter((l) => nodes.includes(l.node));
  const selected = useMemo(() => finalNodes(snapshots, selection), [snapshots, selection]);
  const elsewhere = layers.length === 0 ? codeOf(result.layers, selected, file.path) : null;
  const stats = opened[file.path];

  return (
    <section className="pane pane-code" data-testid="pane-code">
      <FileTabs files={files} shown={file.path} edits={code.edits} />
      <Tools file={file} code={code} stats={stats} />
      <LayerLine layers={layers} selected={selected} elsewhere={elsewhere?.file ?? null} />
      <div className="code-split" ref={split}>
        <div className="code-editor" data-testid="code-editor" data-state={load.state} data-file={file.path}
          data-highlight={highlighted.map(span).join(',')} data-visible={visible.map(span).join(',')}
          data-open-ms={stats ? stats.ms.toFixed(1) : ''} data-folded={stats?.folded ?? ''} data-markers={markers}
          data-heat={heat ? (runStale ? 'stale' : 'fresh') : ''} data-cursor-line={cursor ? `${cursor.file}:${cursor.line}` : ''}
          data-asm-focus={focus ? `${focus.file}:${focus.line}` : ''}>
          <div className="code-host" ref={host} />
          {load.state === 'loading' && <p className="code-overlay">Loading the editor…</p>}
          {load.state === 'failed' && <p className="code-overlay bad" data-testid="code-load-error">The editor did not load: {load.message}</p>}
        </div>
        {code.asm && <Splitter box={split} onMove={setAsmShare} />}
        {code.asm && (
          <AsmPanel content={asm} stale={runStale} cursor={cursor} share={asmShare}
            onPick={(f) => showFunction(f)} onHover={hoverRow} onClick={clickRow} />
        )}
      </div>
    </section>
  );
}

/** The bar between the editor and the assembly view: dragging it sets the view's share of the width (a fifth to four fifths). */
function Splitter({ box, onMove }: { box: React.RefObject<HTMLDivElement | null>; onMove(share: number): void }) {
  const drag = useRef(false);
  const move = (x: number) => {
    const r = box.current?.getBoundingClientRect();
    if (r && r.width > 0) onMove(Math.min(0.8, Math.max(0.2, (r.right - x) / r.width)));
  };
  return (
    <div className="code-splitter" data-testid="asm-splitter" role="separator" aria-orientation="vertical" aria-label="Resize the assembly view"
      onPointerDown={(e) => { drag.current = true; e.currentTarget.setPointerCapture(e.pointerId); }}
      onPointerMove={(e) => { if (drag.current) move(e.clientX); }}
      onPointerUp={(e) => { drag.current = false; e.currentTarget.releasePointerCapture(e.pointerId); }} />
  );
}

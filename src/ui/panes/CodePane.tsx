// The code pane: the codegen stage's files and the kernel library / runtime the program is built
// with, in tabs, in Monaco (loaded lazily, the first time there is code to show), with C
// highlighting, long constant arrays folded, an Edit mode whose edits Compile & run and Run
// build and run, compile errors marked at their line, and links both ways with the graph: the
// selected node's code is highlighted and revealed; putting the cursor in a layer's code selects
// its node. Its state (file shown, editing, edits) lives in the store: see code/state.ts.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CodegenResult } from '../../compiler/codegen/types';
import { useStore } from '../store';
import { recordEdit, showFile } from './code/actions';
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

  // Monaco loads here, the first time the pane has code to show (a chunk of its own).
  useEffect(() => {
    let alive = true;
    let editor: CodeEditor | null = null;
    // The library's sources come with the editor (a chunk of their own, like Monaco's).
    Promise.all([import('./code/editor'), import('../../sim/run/sources')]).then(([{ CodeEditor }, { LIBRARY_SOURCES }]) => {
      if (!alive || !host.current) return;
      setLibrary([...LIBRARY_SOURCES].map(([path, content]) => ({ path, content, kind: 'library' as const })));
      editor = new CodeEditor(host.current, {
        onCursor: (_file, _line, node) => {
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
      <div className="code-editor" data-testid="code-editor" data-state={load.state} data-file={file.path}
        data-highlight={highlighted.map(span).join(',')} data-visible={visible.map(span).join(',')}
        data-open-ms={stats ? stats.ms.toFixed(1) : ''} data-folded={stats?.folded ?? ''} data-markers={markers}>
        <div className="code-host" ref={host} />
        {load.state === 'loading' && <p className="code-overlay">Loading the editor…</p>}
        {load.state === 'failed' && <p className="code-overlay bad" data-testid="code-load-error">The editor did not load: {load.message}</p>}
      </div>
    </section>
  );
}

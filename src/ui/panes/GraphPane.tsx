// The graph pane: the network after any two passes side by side, coloured by what changed
// between them, linked node to node through each snapshot's provenance, with the pass list,
// search, properties, and export of any snapshot as .onnx. Its state (sides, selection,
// hidden passes) lives in the store: see graph/state.ts.
import type { KeyboardEvent } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Snapshot } from '../../compiler/passes/types';
import { useStore } from '../store';
import { exportSnapshot, select, setHideUnchanged, showLeft, showRight, step, usePaneData } from './graph/actions';
import type { CanvasHandle, Marks, SideName } from './graph/GraphCanvas';
import { GraphCanvas } from './graph/GraphCanvas';
import { Legend } from './graph/Legend';
import type { NodeStatus } from './graph/lineage';
import { layoutOf } from './graph/layouts';
import { compareSnapshots, relate } from './graph/lineage';
import { PassList } from './graph/PassList';
import type { Counterparts } from './graph/Properties';
import { Properties } from './graph/Properties';
import type { NodeRef } from './graph/state';
import { resolveSides, shownPasses } from './graph/state';
import './graph/graph.css';

const NONE: ReadonlySet<string> = new Set();
/** Passes after the right one laid out ahead. */
const PREFETCH = 2;

function related(snaps: readonly Snapshot[], ref: NodeRef | null, to: number): Set<string> {
  return ref && snaps[ref.snapshot] ? new Set(relate(snaps, ref.snapshot, [ref.node], to)) : new Set();
}

function searchMatches(s: Snapshot | undefined, query: string): string[] {
  const q = query.trim().toLowerCase();
  if (!s || !q) return [];
  return s.graph.nodes.filter((n) => n.name.toLowerCase().includes(q) || n.op.toLowerCase().includes(q)).map((n) => n.name);
}

function lowerNote(status: string, reason: string | undefined, hasModel: boolean): string | null {
  if (!hasModel) return null;
  switch (status) {
    case 'done': return null;
    case 'skipped': return `The lower stage was skipped: ${reason ?? 'not available'}. This is the graph as parsed.`;
    case 'error': return 'The lower stage failed (see the error above). This is the graph as parsed.';
    case 'running': return 'Lowering…';
    default: return 'Compile to see the graph after each of the platform\'s passes. This is the graph as parsed.';
  }
}

export function GraphPane() {
  const { snapshots, lower } = usePaneData();
  const gs = useStore((s) => s.graph);
  const lowerStage = useStore((s) => s.stages.lower);
  const hasModel = useStore((s) => s.model !== null);
  const [hover, setHover] = useState<NodeRef | null>(null);
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState(0);
  const canvases = { left: useRef<CanvasHandle>(null), right: useRef<CanvasHandle>(null) };

  const sides = resolveSides(gs, snapshots);
  const older = Math.min(sides.left, sides.right);
  const newer = Math.max(sides.left, sides.right);
  const cmp = useMemo(() => (snapshots.length ? compareSnapshots(snapshots, older, newer) : null),
    [snapshots, older, newer]);
  const selection = gs.selection && snapshots[gs.selection.snapshot]?.graph.nodes.some((n) => n.name === gs.selection!.node)
    ? gs.selection : null;
  const matches = {
    left: useMemo(() => searchMatches(snapshots[sides.left], query), [snapshots, sides.left, query]),
    right: useMemo(() => searchMatches(snapshots[sides.right], query), [snapshots, sides.right, query]),
  };
  // Search steps through the right side's matches, or the left's when the right has none.
  const jumpSide: SideName = matches.right.length ? 'right' : 'left';
  const jumpList = matches[jumpSide];
  const currentMatch = jumpList.length ? jumpList[current % jumpList.length]! : null;

  const marksFor = (side: SideName): Marks => {
    const idx = sides[side];
    const status: ReadonlyMap<string, NodeStatus> = !cmp ? new Map() : idx === older ? cmp.older : cmp.newer;
    const own = selection?.snapshot === idx;
    return {
      status,
      selected: own ? new Set([selection!.node]) : NONE,
      linked: selection && !own ? related(snapshots, selection, idx) : NONE,
      hovered: related(snapshots, hover, idx),
      matches: new Set(matches[side]),
      current: side === jumpSide ? currentMatch : null,
    };
  };
  const marks = {
    left: useMemo(() => marksFor('left'), [cmp, selection, hover, matches.left, currentMatch, sides.left, jumpSide]),
    right: useMemo(() => marksFor('right'), [cmp, selection, hover, matches.right, currentMatch, sides.right, jumpSide]),
  };

  // Lay out the next passes while the user looks at this one (after the shown ones: the worker
  // takes requests in order), so stepping on through a big network does not wait.
  useEffect(() => {
    const next = shownPasses(snapshots, gs.hideUnchanged).filter((i) => i > sides.right).slice(0, PREFETCH);
    for (const i of next) layoutOf(snapshots[i]!.graph).catch(() => undefined);
  }, [snapshots, sides.right, gs.hideUnchanged]);

  const counterparts = useMemo((): Counterparts | null => {
    if (!selection) return null;
    const other = selection.snapshot === sides.right ? sides.left : sides.right;
    return {
      snapshot: other, pass: snapshots[other]!.pass,
      nodes: relate(snapshots, selection.snapshot, [selection.node], other),
      direction: other < selection.snapshot ? 'from' : other > selection.snapshot ? 'into' : 'same',
    };
  }, [selection, sides.left, sides.right, snapshots]);

  const jump = (i: number, andSelect: boolean) => {
    if (!jumpList.length) return;
    const k = ((i % jumpList.length) + jumpList.length) % jumpList.length;
    setCurrent(k);
    canvases[jumpSide].current?.focus(jumpList[k]!);
    if (andSelect) select({ snapshot: sides[jumpSide], node: jumpList[k]! });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.target as HTMLElement).closest('input, select, textarea')) return;
    const delta = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
    if (delta) {
      e.preventDefault();
      step(delta);
    } else if (e.key === 'Escape') select(null);
  };

  const lowerNoteText = lowerNote(lowerStage.status, lowerStage.reason, hasModel);
  if (!snapshots.length)
    return (
      <section className="pane pane-graph" data-testid="pane-graph">
        <p className="placeholder">
          The network as a graph: the ONNX nodes with their shapes and types, then the graph after
          each of Deeploy's lowering passes, step by step. Load a model to see it.
        </p>
      </section>
    );

  const side = (name: SideName) => {
    const idx = sides[name];
    const snap = snapshots[idx]!;
    return (
      <div className={`graph-side ${name}`} data-testid={`graph-side-${name}`} data-snapshot={idx} data-pass={snap.pass}>
        <header className="side-head">
          <span className={`side-badge ${name}`}>{name === 'left' ? 'L' : 'R'}</span>
          <select data-testid={`graph-${name}-select`} title={snap.doc}
            value={name === 'left' ? (gs.left === null && !gs.overview ? 'auto' : String(idx)) : String(idx)}
            onChange={(e) => {
              const v = e.target.value;
              if (name === 'left') showLeft(v === 'auto' ? null : Number(v));
              else showRight(Number(v));
            }}>
            {name === 'left' && <option value="auto">the pass before R ({snapshots[sides.left]!.pass})</option>}
            {snapshots.map((s, i) => <option key={i} value={i}>{i} · {s.pass}</option>)}
          </select>
          <span className="side-count">{snap.graph.nodes.length} nodes</span>
          <button type="button" className="button small" data-testid={`graph-export-${name}`}
            title={`Download the graph after ${snap.pass} as an .onnx file`} onClick={() => void exportSnapshot(idx)}>
            ⤓ .onnx
          </button>
        </header>
        <GraphCanvas side={name} graph={snap.graph} types={lower?.elementTypes?.[idx]} marks={marks[name]} ref={canvases[name]}
          onSelect={(node) => select(node ? { snapshot: idx, node } : null)}
          onHover={(node) => setHover(node ? { snapshot: idx, node } : null)} />
      </div>
    );
  };

  return (
    <section className="pane pane-graph" data-testid="pane-graph" tabIndex={-1} onKeyDown={onKeyDown}>
      <div className="graph-body">
        <div className="graph-tools">
          <label className="graph-search">
            <span className="sr-only">Search nodes</span>
            <input type="search" placeholder="Search node name or op…" value={query} data-testid="graph-search"
              onChange={(e) => {
                setQuery(e.target.value);
                setCurrent(0);
                const right = searchMatches(snapshots[sides.right], e.target.value);
                const list = right.length ? right : searchMatches(snapshots[sides.left], e.target.value);
                if (list.length) canvases[right.length ? 'right' : 'left'].current?.focus(list[0]!);
              }}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                const selectedHere = selection?.node === currentMatch && selection?.snapshot === sides[jumpSide];
                jump(selectedHere ? current + (e.shiftKey ? -1 : 1) : current, true);
              }} />
          </label>
          <span className="graph-search-count" data-testid="graph-search-count">
            {query.trim() ? (jumpList.length ? `${(current % jumpList.length) + 1} of ${jumpList.length}` : 'no match') : ''}
          </span>
          <label className="check" title="Hide the passes that left the graph as it was">
            <input type="checkbox" checked={gs.hideUnchanged} data-testid="graph-hide-unchanged"
              onChange={(e) => setHideUnchanged(e.target.checked)} />
            <span>Hide unchanged passes</span>
          </label>
          <button type="button" className="button small" data-testid="graph-fit" title="Fit both graphs in view (or double-click a graph)"
            onClick={() => {
              canvases.left.current?.fit();
              canvases.right.current?.fit();
            }}>Fit</button>
          <span className="graph-hint">↑↓ step passes · click a node to link it · double-click to fit</span>
        </div>
        <PassList snapshots={snapshots} lower={lower} sides={sides} hideUnchanged={gs.hideUnchanged} note={lowerNoteText} />
        {side('left')}
        {side('right')}
        <div className="graph-foot">
          <Legend />
          <Properties snapshots={snapshots} lower={lower} selection={selection} counterparts={counterparts} onSelect={select} />
        </div>
      </div>
    </section>
  );
}

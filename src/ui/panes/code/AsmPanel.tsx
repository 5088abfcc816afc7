// The assembly view beside the editor, as in Compiler Explorer: a function of the program as
// run, one row per instruction (address, instruction, cycles and stall share with a heat bar,
// source file:line), rows coloured like their C line in the editor. Hovering a row marks its C
// line, clicking goes there (switching file); the rows of the C line under the cursor are
// outlined. Presentational: CodeView computes the rows and drives the editor.
import { memo, useEffect, useRef } from 'react';
import type { ProgramSymbol } from '../../../sim/link/link';
import type { AsmRow, RankedFunction } from './asm';
import { colourClass, lineKey } from './colours';
import { fmtCycles, fmtShare } from './heat';

const hex = (v: number) => (v >>> 0).toString(16).padStart(8, '0');
const fnKey = (f: { name: string; addr: number }) => `${f.name}@${f.addr}`;
const baseName = (p: string) => p.replace(/^.*\//, '');

/** Why there is no assembly to show, or the function's rows. */
export type AsmContent =
  | { kind: 'none'; message: string }
  | {
    kind: 'rows';
    fn: ProgramSymbol;
    rows: readonly AsmRow[];
    ranked: readonly RankedFunction[];
    colours: ReadonlyMap<string, number>;
    /** Cycles of the whole run's heat, all cores (0 without a profile). */
    total: number;
    profiled: boolean;
  };

export interface AsmPanelProps {
  content: AsmContent;
  stale: boolean;
  /** Its share of the pane's width. */
  share: number;
  /** The C line under the editor's cursor (a code pane path). */
  cursor: { file: string; line: number } | null;
  onPick(fn: ProgramSymbol): void;
  onHover(row: AsmRow | null): void;
  onClick(row: AsmRow): void;
}

interface RowProps {
  row: AsmRow;
  colour: number | undefined;
  atCursor: boolean;
  max: number;
  onHover(row: AsmRow | null): void;
  onClick(row: AsmRow): void;
}

const Row = memo(function Row({ row: r, colour, atCursor, max, onHover, onClick }: RowProps) {
  const run = max > 0 ? (100 * (r.cycles - r.stalls)) / max : 0;
  const stall = max > 0 ? (100 * r.stalls) / max : 0;
  const src = r.file ? `${baseName(r.file)}:${r.line}` : '';
  return (
    <div className={`asm-row ${colourClass(colour)}${atCursor ? ' cursor' : ''}${r.file && r.inPane ? ' linked' : ''}`}
      data-testid="asm-row" data-pc={`0x${hex(r.pc)}`} data-file={r.file ?? ''} data-line={r.line || ''}
      data-cycles={r.cycles} data-stalls={r.stalls} data-cursor={atCursor || undefined}
      title={`${r.file ? `${r.file}:${r.line}` : 'no source line'}${r.cycles ? ` · ${r.cycles.toLocaleString('en-US')} cycles, ${r.stalls.toLocaleString('en-US')} of them stalls` : ''}`}
      onMouseEnter={() => onHover(r)} onMouseLeave={() => onHover(null)} onClick={() => onClick(r)}>
      <span className="asm-heat" aria-hidden>
        <span className="asm-heat-run" style={{ width: `${run}%` }} />
        <span className="asm-heat-stall" style={{ width: `${stall}%` }} />
      </span>
      <span className="asm-addr">{hex(r.pc)}</span>
      <span className="asm-text">{r.text}</span>
      <span className="asm-cycles">{r.cycles ? fmtCycles(r.cycles) : ''}</span>
      <span className="asm-stalls">{r.stalls ? fmtShare(r.stalls, r.cycles) : ''}</span>
      <span className="asm-src"><span dir="ltr">{src}</span></span>
    </div>
  );
});

export function AsmPanel({ content, stale, share, cursor, onPick, onHover, onClick }: AsmPanelProps) {
  const style = { flex: `0 0 ${(share * 100).toFixed(1)}%` };
  const scroller = useRef<HTMLDivElement>(null);
  const fn = content.kind === 'rows' ? content.fn : null;

  // The cursor's rows (or a new function's first row) scrolled into view, unless on screen.
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const first = box.querySelector<HTMLElement>('[data-cursor="true"]');
    if (!first) return;
    const top = first.offsetTop - box.offsetTop, bottom = top + first.offsetHeight;
    if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 3);
  }, [cursor, fn]);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [fn]);

  if (content.kind === 'none')
    return (
      <div className="asm-panel" data-testid="asm-view" data-state="none" style={style}>
        <div className="asm-inner"><p className="asm-note" data-testid="asm-note">{content.message}</p></div>
      </div>
    );

  const { rows, ranked, colours, total, profiled } = content;
  const mine = ranked.find((r) => r.fn === content.fn);
  const max = rows.reduce((m, r) => Math.max(m, r.cycles), 0);
  return (
    <div className="asm-panel" data-testid="asm-view" data-state="rows" data-function={content.fn.name} data-stale={stale} style={style}>
      <div className="asm-inner">
        <div className="asm-head">
          <select data-testid="asm-function" value={fnKey(content.fn)} aria-label="Function"
            onChange={(e) => { const f = ranked.find((r) => fnKey(r.fn) === e.target.value); if (f) onPick(f.fn); }}>
            {ranked.map((r) => (
              <option key={fnKey(r.fn)} value={fnKey(r.fn)}>
                {r.fn.name}{profiled ? ` · ${r.cycles ? `${fmtCycles(r.cycles)} cyc (${fmtShare(r.cycles, total)})` : 'not run'}` : ''}
              </option>
            ))}
          </select>
          <span className="asm-summary" data-testid="asm-summary">
            {rows.length} instructions
            {profiled && mine && (mine.cycles
              ? ` · ${fmtCycles(mine.cycles)} cycles, ${fmtShare(mine.cycles, total)} of all cores' cycles · ${fmtShare(mine.stalls, mine.cycles)} stalls`
              : ' · not run')}
          </span>
          {stale && (
            <span className="tag asm-stale" data-testid="asm-stale"
              title="The code changed since this run: the assembly and cycles are those of the code as it was run. Run again to update them.">
              stale
            </span>
          )}
        </div>
        <div className="asm-cols" aria-hidden>
          <span className="asm-heat" /><span className="asm-addr">address</span><span className="asm-text">instruction</span>
          <span className="asm-cycles">cycles</span><span className="asm-stalls">stalls</span><span className="asm-src">source</span>
        </div>
        <div className="asm-rows" ref={scroller} onMouseLeave={() => onHover(null)}>
          {rows.map((r) => (
            <Row key={r.pc} row={r} colour={r.file ? colours.get(lineKey(r.file, r.line)) : undefined}
              atCursor={cursor !== null && r.file === cursor.file && r.line === cursor.line}
              max={max} onHover={onHover} onClick={onClick} />
          ))}
        </div>
      </div>
    </div>
  );
}

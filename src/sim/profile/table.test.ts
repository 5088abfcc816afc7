import { describe, expect, it } from 'vitest';
import { makeProfile } from './fixture';
import { columns, EXECUTION_ORDER, formatCell, layerRows, layersCsv, nextSort, sortRows } from './table';

/** Parses RFC 4180 CSV (quoted fields with doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; }
    else field += c;
  }
  return rows;
}

describe('layerRows', () => {
  it('sums the workers\' instructions and stalls and gives each layer its share of the network', () => {
    const p = makeProfile({ layers: 3, tilesPerLayer: 2 });
    const rows = layerRows(p);
    const l = p.layers[1]!;
    expect(rows[1]!.instructions).toBe(l.cores.reduce((s, c) => s + c.instructions, 0));
    expect(rows[1]!.stalls.bank).toBe(l.cores.reduce((s, c) => s + c.stalls.bank, 0));
    expect(rows[1]!.tiles).toBe(2);
    expect(rows.reduce((s, r) => s + r.percent, 0)).toBeCloseTo(100);
    // Estimated layers (even ones in the fixture) get measured/estimate, the others none.
    expect(rows[0]!.ratio).toBeCloseTo(p.layers[0]!.cycles / p.layers[0]!.estimate!);
    expect(rows[1]!.ratio).toBeUndefined();
  });

  it('gives a speedup where the baseline holds the layer', () => {
    const p = makeProfile({ layers: 2 });
    const rows = layerRows(p, { [p.layers[0]!.node]: p.layers[0]!.cycles * 3 });
    expect(rows[0]!.speedup).toBeCloseTo(3);
    expect(rows[1]!.speedup).toBeUndefined();
  });
});

describe('sortRows', () => {
  const p = makeProfile({ layers: 7, tilesPerLayer: 2 });
  const cols = columns(true);
  const rows = layerRows(p, { [p.layers[2]!.node]: 1000, [p.layers[5]!.node]: 10 });

  it('sorts numbers numerically in both directions, ties in execution order', () => {
    const desc = sortRows(rows, { key: 'cycles', dir: 'desc' }, cols);
    for (let i = 1; i < desc.length; i++) {
      expect(desc[i - 1]!.cycles).toBeGreaterThanOrEqual(desc[i]!.cycles);
      if (desc[i - 1]!.cycles === desc[i]!.cycles) expect(desc[i - 1]!.order).toBeLessThan(desc[i]!.order);
    }
    const asc = sortRows(rows, { key: 'cycles', dir: 'asc' }, cols);
    for (let i = 1; i < asc.length; i++) expect(asc[i - 1]!.cycles).toBeLessThanOrEqual(asc[i]!.cycles);
  });

  it('sorts text by name, and keeps rows without a value last either way', () => {
    expect(sortRows(rows, { key: 'op', dir: 'asc' }, cols).map((r) => r.op)).toEqual(rows.map((r) => r.op).sort((a, b) => a.localeCompare(b)));
    const up = sortRows(rows, { key: 'speedup', dir: 'asc' }, cols);
    const down = sortRows(rows, { key: 'speedup', dir: 'desc' }, cols);
    expect(up.slice(0, 2).map((r) => r.order)).toEqual([5, 2]);
    expect(down.slice(0, 2).map((r) => r.order)).toEqual([2, 5]);
    expect(up.slice(2).every((r) => r.speedup === undefined)).toBe(true);
    expect(down.slice(2).map((r) => r.order)).toEqual([0, 1, 3, 4, 6]);
  });

  it('leaves its input alone and falls back to execution order', () => {
    const copy = rows.map((r) => r.node);
    sortRows(rows, { key: 'cycles', dir: 'desc' }, cols);
    expect(rows.map((r) => r.node)).toEqual(copy);
    expect(sortRows([...rows].reverse(), EXECUTION_ORDER, cols).map((r) => r.node)).toEqual(copy);
  });

  it('a header click flips the column it sorts by, and starts another descending (text ascending)', () => {
    expect(nextSort({ key: 'cycles', dir: 'desc' }, 'cycles', cols)).toEqual({ key: 'cycles', dir: 'asc' });
    expect(nextSort({ key: 'cycles', dir: 'asc' }, 'tiles', cols)).toEqual({ key: 'tiles', dir: 'desc' });
    expect(nextSort(EXECUTION_ORDER, 'node', cols)).toEqual({ key: 'node', dir: 'asc' });
  });
});

describe('layersCsv', () => {
  it('writes a header and one row per layer with raw numbers, parsing back to the profile', () => {
    const p = makeProfile({ layers: 3, tilesPerLayer: 4 });
    const csv = layersCsv(p);
    expect(csv.endsWith('\r\n')).toBe(true);
    const [head, ...body] = parseCsv(csv);
    expect(head!.slice(0, 7)).toEqual(['layer', 'op', 'kernel function', 'engine', 'cycles', 'percent of network', 'tiles']);
    expect(head).toContain('dma-wait cycles');
    expect(head).toContain('stall bank conflict');
    expect(head).not.toContain('speedup');
    expect(body).toHaveLength(3);
    const col = (name: string) => head!.indexOf(name);
    p.layers.forEach((l, i) => {
      const r = body[i]!;
      expect(r).toHaveLength(head!.length);
      expect(r[col('layer')]).toBe(l.node);
      expect(Number(r[col('cycles')])).toBe(l.cycles);
      expect(Number(r[col('kernel cycles')])).toBe(l.phases.kernel);
      expect(Number(r[col('dma bytes')])).toBe(l.dmaBytes);
      expect(Number(r[col('tiles')])).toBe(4);
      expect(Number(r[col('worker instructions')])).toBe(l.cores.reduce((s, c) => s + c.instructions, 0));
      // No estimate: an empty field, not a dash.
      expect(r[col('estimate')]).toBe(l.estimate === undefined ? '' : String(l.estimate));
    });
  });

  it('quotes names holding commas, quotes or line breaks', () => {
    const p = makeProfile({ layers: 2 });
    p.layers[0]!.node = 'a,b';
    p.layers[1]!.node = 'say "hi"\nthere';
    const [, r0, r1] = parseCsv(layersCsv(p));
    expect(r0![0]).toBe('a,b');
    expect(r1![0]).toBe('say "hi"\nthere');
    expect(layersCsv(p)).toContain('"say ""hi""\nthere"');
  });

  it('adds the speedup column against a baseline', () => {
    const p = makeProfile({ layers: 2 });
    const [head, r0, r1] = parseCsv(layersCsv(p, { [p.layers[0]!.node]: p.layers[0]!.cycles * 2 }));
    const k = head!.indexOf('speedup');
    expect(k).toBeGreaterThan(0);
    expect(Number(r0![k])).toBe(2);
    expect(r1![k]).toBe('');
  });
});

describe('formatCell', () => {
  it('formats for the screen', () => {
    expect(formatCell(undefined, 'int')).toBe('—');
    expect(formatCell(1234567, 'int')).toBe('1,234,567');
    expect(formatCell(12.345, 'percent')).toBe('12.3');
    expect(formatCell(2.5, 'ratio')).toBe('2.50×');
    expect(formatCell(20480, 'bytes')).toBe('20.0 KiB');
  });
});

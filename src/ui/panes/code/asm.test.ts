// The assembly view's data on a real program: the adder built by the builtin toolchain and run
// profiled on the simulator. Rows cover their function, carry the line table's source line at a
// code pane path and the profile's cycles at their pc; the per-line heat adds up to the
// profile's own per-line cycles; lines and functions find each other both ways.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodegenResult } from '../../../compiler/codegen/types';
import { DEFAULT_CONFIG, type Config } from '../../../compiler/config';
import { nodeMilp } from '../../../pipeline/node/milp';
import { runPipeline } from '../../../pipeline/run';
import { disassemble } from '../../../sim/disasm';
import { functionAt as linkFunctionAt, lineAt } from '../../../sim/link/lines';
import { nodeMachine } from '../../../sim/node';
import { MemoryObjectCache, runBuiltin } from '../../../sim/run/builtin';
import { LIBRARY_SOURCES } from '../../../sim/run/sources';
import type { RunResult } from '../../../sim/run/types';
import { defaultFunction, functionAt, functionRows, kernelFunction, functionsAtLine, heatIn, rankFunctions, sourceResolver, type Resolve } from './asm';
import { editorColours, lineKey, linkColours, PALETTE_SIZE } from './colours';
import { fmtCycles, fmtShare, HEAT_LEVELS, heatLevel, lineHeat, maxCycles } from './heat';

describe('sourceResolver', () => {
  const resolve = sourceResolver(['Network.c', 'main.c', 'kernels/gemm.c', 'kernels/dpg_kernels.h', 'runtime/hal.h', 'runtime/libc/libc.c', 'a/x.h', 'b/x.h']);
  it('maps the line table names onto the code pane paths', () => {
    expect(resolve('/Network.c')).toBe('Network.c');
    expect(resolve('/kernels/gemm.c')).toBe('kernels/gemm.c');
    expect(resolve('kernels/gemm.c')).toBe('kernels/gemm.c');
    expect(resolve('/runtime/libc/libc.c')).toBe('runtime/libc/libc.c');
    // clang's absolute paths of a build folder.
    expect(resolve('/tmp/dpg-build-1/kernels/gemm.c')).toBe('kernels/gemm.c');
    expect(resolve('/tmp/dpg-build-1/Network.c')).toBe('Network.c');
  });
  it('refuses a bare name two folders have, a folder that differs and files the pane lacks', () => {
    expect(resolve('x.h')).toBeNull();
    expect(resolve('/a/x.h')).toBe('a/x.h');
    expect(resolve('/runtime/gemm.c')).toBeNull();
    expect(resolve('/dpg-cc/include/stdint.h')).toBeNull();
  });
});

describe('heatLevel and fmtCycles', () => {
  it('grows with the cycles, from 1 for any cycles to the top level for the hottest line', () => {
    expect(heatLevel(0, 100)).toBe(0);
    expect(heatLevel(0.001, 100)).toBe(1);
    expect(heatLevel(100, 100)).toBe(HEAT_LEVELS);
    let last = 0;
    for (let c = 1; c <= 100; c++) {
      const l = heatLevel(c, 100);
      expect(l).toBeGreaterThanOrEqual(last);
      last = l;
    }
  });
  it('prints cycles short', () => {
    expect(fmtCycles(1234)).toBe('1,234');
    expect(fmtCycles(12_345)).toBe('12.3 k');
    expect(fmtCycles(123_456)).toBe('123 k');
    expect(fmtCycles(12_345_678)).toBe('12.3 M');
    expect([fmtShare(1, 3), fmtShare(1, 30), fmtShare(1, 100_000), fmtShare(0, 5), fmtShare(1, 0)]).toEqual(['33 %', '3.3 %', '< 0.1 %', '0.0 %', '0 %']);
  });
});

describe('the assembly view of a profiled run (adder, builtin toolchain)', () => {
  let code: CodegenResult;
  let run: RunResult;
  let resolve: Resolve;
  let paths: string[];
  beforeAll(async () => {
    const dir = new URL('../../../../public/models/adder/', import.meta.url);
    const f = (n: string) => new Uint8Array(readFileSync(new URL(n, dir)));
    const config: Config = { ...DEFAULT_CONFIG, platform: 'siracusa' };
    await runPipeline({ model: f('network.onnx'), modelName: 'network.onnx', inputs: f('inputs.npz'), outputs: f('outputs.npz') }, config,
      (e) => { if (e.type === 'stage' && e.stage === 'codegen') code = e.result; }, { milp: nodeMilp, until: 'codegen' });
    const machine = nodeMachine();
    run = await runBuiltin(code, config, { machine: () => machine, cache: new MemoryObjectCache(), profile: true });
    // The code pane's files: the generated ones, then the library's.
    paths = [...code.files.map((x) => x.path), ...LIBRARY_SOURCES.keys()];
    resolve = sourceResolver(paths);
  }, 180_000);

  it('ranks the functions by their cycles, which are their rows\' cycles', () => {
    const p = run.program!, heat = run.profile!.heat;
    const ranked = rankFunctions(p, heat);
    expect(ranked.length).toBe(p.functions.length);
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.cycles).toBeGreaterThanOrEqual(ranked[i]!.cycles);
    expect(ranked[0]!.cycles).toBeGreaterThan(0);
    for (const r of ranked.slice(0, 12)) {
      const rows = functionRows(p, r.fn, heat, resolve);
      expect(rows.reduce((s, x) => s + x.cycles, 0), r.fn.name).toBe(r.cycles);
      expect(rows.reduce((s, x) => s + x.stalls, 0), r.fn.name).toBe(r.stalls);
    }
    // The network's kernels ran: RunNetwork and the Add kernel have cycles.
    const names = ranked.filter((r) => r.cycles > 0).map((r) => r.fn.name);
    expect(names).toContain('RunNetwork');
    expect(names).toContain('dpg_binary');
    expect(names).toContain('main');
    // Without a profile: by address.
    const plain = rankFunctions(p, undefined);
    expect(plain.map((r) => r.fn.addr)).toEqual([...p.functions].map((f) => f.addr).sort((a, b) => a - b));
  });

  it('disassembles a function over its whole range, every instruction of a hot C function at a source line of the pane', () => {
    const p = run.program!, heat = run.profile!.heat;
    const hot = rankFunctions(p, heat).filter((r) => r.cycles > 0).slice(0, 10);
    expect(hot.length).toBeGreaterThan(3);
    for (const { fn } of hot) {
      const rows = functionRows(p, fn, heat, resolve);
      expect(rows[0]!.pc).toBe(fn.addr);
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.pc).toBe(rows[i - 1]!.pc + rows[i - 1]!.size);
      const last = rows[rows.length - 1]!;
      expect(last.pc + last.size).toBe(fn.addr + fn.size);
      for (const r of rows) {
        expect(r.text.startsWith(disassemble(r.word, r.pc).text)).toBe(true);
        expect(r.text).not.toBe('unknown');
        expect(r.file, `${fn.name} ${r.pc.toString(16)} ${r.text}`).not.toBeNull();
        expect(r.inPane, `${fn.name}: ${r.file}`).toBe(true);
        expect(paths).toContain(r.file);
        expect(r.line).toBeGreaterThan(0);
        expect(r.stalls).toBeLessThanOrEqual(r.cycles);
      }
    }
    // Calls name their callee, as objdump does.
    const net = p.functions.find((f) => f.name === 'RunNetwork')!;
    expect(functionRows(p, net, heat, resolve).some((r) => /^jalr ra, -?\d+\(ra\) <hal_fork>$/.test(r.text))).toBe(true);
  });

  it('sums the heat per line of each pane file to the profile\'s per-line cycles', () => {
    const p = run.program!, prof = run.profile!;
    const h = lineHeat(p, prof.heat, resolve);
    expect(h.total).toBe(prof.heat.cycles.reduce((a, b) => a + b, 0));
    // The profile names files without their folder; group ours the same way.
    const ours = new Map<string, { cycles: number; stalls: number }>();
    for (const [path, lines] of h.files)
      for (const [line, c] of lines) {
        const k = `${path.replace(/^.*\//, '')}:${line}`;
        const e = ours.get(k) ?? { cycles: 0, stalls: 0 };
        e.cycles += c.cycles; e.stalls += c.stalls;
        ours.set(k, e);
      }
    const theirs = new Map(prof.lines.map((l) => [`${l.file}:${l.line}`, { cycles: l.cycles, stalls: l.stalls }]));
    expect(ours).toEqual(theirs);
    expect(h.placed).toBe(prof.lines.reduce((s, l) => s + l.cycles, 0));
    expect(h.placed).toBeGreaterThan(0.9 * h.total);
    expect(maxCycles(h.files.get('kernels/elementwise.c'))).toBeGreaterThan(0);
  });

  it('finds the functions of a source line, and a function\'s lines find it', () => {
    const p = run.program!, heat = run.profile!.heat;
    const ranked = rankFunctions(p, heat);
    const binary = p.functions.find((f) => f.name === 'dpg_binary')!;
    const rows = functionRows(p, binary, heat, resolve);
    for (const r of rows) expect(functionsAtLine(p, resolve, r.file!, r.line, ranked).map((f) => f.name), `${r.file}:${r.line}`).toContain('dpg_binary');
    // The hottest line of elementwise.c: its hottest pc's function is among its functions, which come hottest first.
    const lines = lineHeat(p, heat, resolve).files.get('kernels/elementwise.c')!;
    const [hotLine] = [...lines].sort((a, b) => b[1].cycles - a[1].cycles)[0]!;
    let hotPc = -1, most = -1;
    for (let i = 0; i < heat.pc.length; i++) {
      const l = lineAt(p.lines, heat.pc[i]!);
      if (l?.file === '/kernels/elementwise.c' && l.line === hotLine && heat.cycles[i]! > most) { most = heat.cycles[i]!; hotPc = heat.pc[i]!; }
    }
    const fns = functionsAtLine(p, resolve, 'kernels/elementwise.c', hotLine, ranked);
    expect(fns).toContain(functionAt(p.functions, hotPc));
    // The binary search finds what the linker's scan finds.
    for (let pc = p.addr; pc < p.addr + p.bytes.length; pc += 6) expect(functionAt(p.functions, pc)).toBe(linkFunctionAt(p.functions, pc));
    const order = ranked.map((r) => r.fn);
    for (let i = 1; i < fns.length; i++) expect(order.indexOf(fns[i]!)).toBeGreaterThan(order.indexOf(fns[i - 1]!));
    for (const fn of fns) expect(functionRows(p, fn, heat, resolve).some((r) => r.file === 'kernels/elementwise.c' && r.line === hotLine)).toBe(true);
    // A line without code (the file's first, a comment) has no function.
    expect(functionsAtLine(p, resolve, 'kernels/elementwise.c', 1, ranked)).toEqual([]);
  });

  it('shows the chosen function, else the hottest of the file shown', () => {
    const p = run.program!, heat = run.profile!.heat;
    const ranked = rankFunctions(p, heat);
    const binary = p.functions.find((f) => f.name === 'dpg_binary')!;
    const hottestThere = ranked.find((r) => functionRows(p, r.fn, heat, resolve).some((x) => x.file === 'kernels/elementwise.c'))!.fn;
    expect(hottestThere.name).toMatch(/binary/);
    expect(defaultFunction(p, ranked, null, 'kernels/elementwise.c', resolve)).toBe(hottestThere);
    expect(defaultFunction(p, ranked, binary, 'Network.c', resolve)).toBe(binary);
    expect(defaultFunction(p, ranked, { name: 'dpg_binary', addr: 4 }, 'Network.c', resolve)).toBe(binary);
    const net = defaultFunction(p, ranked, { name: 'no_such_function', addr: binary.addr }, 'Network.c', resolve)!;
    expect(functionRows(p, net, heat, resolve).some((r) => r.file === 'Network.c')).toBe(true);
    // A layer's kernel: the function of the library it calls.
    const add = code.layers.find((l) => l.op === 'Add')!;
    expect(kernelFunction(ranked, add.calls)?.name).toBe('dpg_binary');
    expect(kernelFunction(ranked, ['no_such_kernel'])).toBeUndefined();
    // A file without code: the hottest function.
    expect(defaultFunction(p, ranked, null, 'Makefile', resolve)).toBe(ranked[0]!.fn);
  });

  it('gives each source line of a function one colour, shared by its instructions and its editor line', () => {
    const p = run.program!;
    const rows = functionRows(p, p.functions.find((f) => f.name === 'RunNetwork')!, run.profile!.heat, resolve);
    const colours = linkColours(rows);
    const keys = [...new Set(rows.filter((r) => r.file).map((r) => lineKey(r.file!, r.line)))];
    expect([...colours.keys()]).toEqual(keys);
    expect(keys.length).toBeGreaterThan(2);
    keys.forEach((k, i) => expect(colours.get(k)).toBe(i % PALETTE_SIZE));
    const byFile = editorColours(rows, colours);
    for (const r of rows) expect(byFile.get(r.file!)?.get(r.line)).toBe(colours.get(lineKey(r.file!, r.line)));
  });

  it('sums to the heat of the range', () => {
    const heat = run.profile!.heat;
    const all = heatIn(heat, 0, 2 ** 32);
    expect(all.cycles).toBe(heat.cycles.reduce((a, b) => a + b, 0));
    expect(heatIn(heat, heat.pc[0]!, heat.pc[0]! + 1).cycles).toBe(heat.cycles[0]);
  });
});

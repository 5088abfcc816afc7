// Generates the wasm core's decoder and executor (AssemblyScript) from the ISA table: one
// decode test per row, grouped by major opcode, and one `case` per executing row in the run
// loop's switch. Run by build.ts; the output goes to src/sim/as/gen/ (not committed).
import { extractAs } from '../isa/fields';
import type { Field } from '../isa/fields';
import { DECODE_ORDER, EXEC_ROWS, FIRST_OP, MAX_OPS, OP_ILLEGAL, TABLE, opOf, tableHash } from '../isa/table';
import type { Row } from '../isa/table';

const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;

// ------------------------------------------------------------------ decoder
function decodeRowAs(r: Row): string {
  const f = r.format;
  const fld = (fl: Field | undefined) => (fl ? extractAs(fl, 'w') : '0');
  const lines: string[] = [];
  lines.push(`if ((w & ${hex(r.mask)}) == ${hex(r.match)}) { // ${r.id}`);
  if (f.writesRd) lines.push(`  let rd: u32 = <u32>${fld(f.rd)}; if (rd == 0) rd = 32;`);
  else lines.push(`  const rd: u32 = <u32>${fld(f.rd)};`);
  lines.push(`  decImm = ${fld(f.imm)};`);
  const c = r.size === 2 ? 1 : 0;
  lines.push(`  return ${opOf(r)} | ${c << 9} | (rd << 10) | (<u32>${fld(f.rs1)} << 16) | (<u32>${fld(f.rs2)} << 21) | ((<u32>${fld(f.aux)} & 63) << 26);`);
  lines.push('}');
  return lines.map((l) => `      ${l}`).join('\n');
}

function decoderAs(): string {
  const groups = new Map<string, Row[]>();
  for (const r of DECODE_ORDER) {
    const key = r.size === 4 ? `W${r.match & 0x7f}` : `C${(r.match & 3) | ((r.match >> 11) & 0x1c)}`;
    if (r.size === 4 && (r.mask & 0x7f) !== 0x7f) throw new Error(`${r.id}: opcode bits not fixed`);
    if (r.size === 2 && (r.mask & 0xe003) !== 0xe003) throw new Error(`${r.id}: compressed op/funct3 not fixed`);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const cases = (prefix: string) => [...groups.entries()].filter(([k]) => k.startsWith(prefix))
    .sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1)))
    .map(([k, rows]) => `    case ${k.slice(1)}: {\n${rows.map(decodeRowAs).join('\n')}\n      break;\n    }`).join('\n');
  return `/** Decodes an instruction word into a predecoded entry's first word; the immediate goes to decImm. */
export function decode(word: u32): u32 {
  decImm = 0;
  if ((word & 3) != 3) {
    const w: u32 = word & 0xffff;
    switch ((w & 3) | ((w >> 11) & 0x1c)) {
${cases('C')}
      default: break;
    }
    return ${OP_ILLEGAL};
  }
  const w: u32 = word;
  switch (w & 0x7f) {
${cases('W')}
    default: break;
  }
  return ${OP_ILLEGAL};
}`;
}

// ------------------------------------------------------------------ executor
const EXPANDED = new Set(TABLE.filter((r) => r.expands).map((r) => r.expands!));

/** Expands the exec mini-language (see Row.exec) into AssemblyScript. */
function expandExec(r: Row): string {
  const trapOut = 'return trapOut(S, pc, n, stall, ld, pw';
  return (r.exec ?? '')
    .replace(/\bW\(/g, 'store<i32>(R + (<usize>rd << 2), ')
    .replace(/\bWX\(/g, 'wreg(R, ')
    // Loads and stores get the fast-path gate and the core's cycle (see as/mem.ts).
    .replace(/\b(LB|LBU|LH|LHU|LW|SB|SH|SW)\(/g, '$1(gate, c0 + <u32>(n + stall), ')
    // After an access or CSR: a trap, a sleep / exit before the instruction, or extra cycles.
    .replace(/\bCHECK\b/g, `if (fault != 0) { const x = memEvent(c0 + <u32>(n + stall)); if (x < 0) { if (x == -2) ${trapOut}, fault, faultAddr); return leave(S, pc, n, stall, ld, pw, x == -1 ? STOP_SLEEP : STOP_EXIT); } stall += x; if (yieldReq) budget = 0; }`)
    .replace(/\bTRAP\(/g, `${trapOut}, `)
    .replace(/\bSTOP\(/g, 'return leave(S, pc, n, stall, ld, pw, ')
    .replace(/\bHWSYNC\b/g, 'e0 = hwEnd(S, 0); e1 = hwEnd(S, 1)')
    .replace(/\bHWNEXT\b/g, 'if ((pc == e0) | (pc == e1)) pc = hwLoopBack(S, pc)');
}

function caseAs(r: Row, op: number, prof: boolean): string {
  // Profiled: a jump's or taken branch's extra cycles are counted as branch stalls.
  const x = expandExec(r) + (prof && r.jumps ? ' store<u64>(S + L.STALL_BRANCH, load<u64>(S + L.STALL_BRANCH) + <u64>(stall - sb));' : '');
  const uses = (re: RegExp) => re.test(x);
  const decl: string[] = [];
  const A = uses(/\bA\b/); const B = uses(/\bB\b/); const C = uses(/\bC\b/); const D = uses(/\bD\b/);
  if (uses(/\brd\b/) || D) decl.push('const rd = <i32>((w >> 10) & 63);');
  if (uses(/\brs1\b/) || A) decl.push('const rs1 = <i32>((w >> 16) & 31);');
  if (uses(/\brs2\b/) || B) decl.push('const rs2 = <i32>((w >> 21) & 31);');
  if (uses(/\baux\b/) || C) decl.push('const aux = (<i32>w) >> 26;');
  if (uses(/\bimm\b/)) decl.push('const imm = load<i32>(e, 4);');
  const tail = r.jumps ? '' : EXPANDED.has(r.id) ? ' pc += len;' : ' pc += 4;';
  if (uses(/\blen\b/) || tail.includes('len')) decl.push('const len: u32 = 4 - ((w >> 8) & 2);');
  if (A) decl.push('const A = load<i32>(R + (<usize>rs1 << 2));');
  if (B) decl.push('const B = load<i32>(R + (<usize>rs2 << 2));');
  if (C) decl.push('const C = load<i32>(R + (<usize>(aux & 31) << 2));');
  if (D) decl.push('const D = load<i32>(R + (<usize>rd << 2));');
  return `      case ${op}: { // ${r.id}\n        ${[...decl, x + tail].join('\n        ')}\n        break;\n      }`;
}

/**
 * The run loop; `prof` makes the profiled copy (runProf): the same instructions at the same
 * cycles, plus the profile's bookkeeping (as/profile.ts): the controller's region changes, the
 * cycles and stalls per pc, load-use and branch stalls counted apart, the running count of
 * retired instructions for the event unit's records.
 */
function executorAs(prof: boolean): string {
  const cases = EXEC_ROWS.map((r, i) => caseAs(r, i + FIRST_OP, prof)).join('\n');
  const P = (code: string) => (prof ? code : '');
  return `/**
 * Runs core \`core\` for at most \`budget\` instructions (or, with \`cycleMode\`, until it has
 * spent \`budget\` cycles); returns STOP_BUDGET, STOP_ECALL (the host services the call; pc is
 * past it), STOP_TRAP (cause, pc, word in the core record), STOP_SLEEP (blocked on the event
 * unit, pc at the access) or STOP_EXIT. Everything hot lives in locals: pc, the instruction
 * count n and the extra stall cycles.
 */
export function ${prof ? 'runProf' : 'run'}(core: i32, budget: i32, cycleMode: bool): i32 {
  const S: usize = coreState(core);${P(`
  const ctrl: bool = core == PROF_CONTROLLER;`)}
  const R: usize = S + REGS;
  setCurrent(S, core);
  const gate: u32 = l2Gate;
  const km: i32 = cycleMode ? -1 : 0;
  let pc: u32 = load<u32>(S + PC);
  let n: i32 = 0;
  let stall: i32 = 0;
  let ld: i32 = load<i32>(S + LOAD_RD);
  let pw: u32 = load<u32>(S + PREV_W);
  let e0: u32 = hwEnd(S, 0);
  let e1: u32 = hwEnd(S, 1);
  // The instruction cache (as/icache.ts): looked up when the pc leaves the buffered line.
  const icm: bool = icacheModel;
  let icl: u32 = load<u32>(S + IC_LINE);
  const cyc0: u64 = load<u64>(S + CYCLES);
  const ins0: u64 = load<u64>(S + INSTRET);
  const c0: u32 = <u32>cyc0;
  clearFault();
  while (n + (stall & km) < budget) {
    let e: usize;
    const o: u32 = pc - L2_BASE;
    if (o < L2_SIZE) e = IC_L2 + (<usize>o << 2);
    else {
      e = icacheSlow(pc);
      if (e == 0) return trapOut(S, pc, n, stall, ld, pw, (pc & 1) != 0 ? CAUSE_FETCH_MISALIGNED : CAUSE_FETCH_FAULT, pc);
    }
    let w: u32 = load<u32>(e);
    if ((w & OP_MASK) == OP_UNDECODED) w = decodeAt(e, pc);
    if (icm) {
      if ((pc >> 4) != icl) { icl = pc >> 4; stall += icacheFetch(S, core, pc); }
      // A 32-bit instruction in the line's last halfword needs the next line too.
      if ((pc & 15) == 14 && (w & 0x200) == 0) { icl = (pc + 2) >> 4; stall += icacheFetch(S, core, pc + 2); }
    }${P(`
    const ipc: u32 = pc;
    const s0: i32 = n + stall;
    setProfN(n);
    if (ctrl) {
      const ro: u32 = ipc - profLo;
      if (ro < profSpan) {
        const r: u32 = <u32>load<u16>(L.PROF_REGION + <usize>ro);
        if (r != 0 && r != profRegion) profRegionAt(r, cyc0 + <u64>(n + stall));
      }
    }`)}
    // Load-use: one stall cycle when this instruction reads what the previous load wrote.
    if (ld != 0) {
      if (<i32>((w >> 16) & 31) == ld || <i32>((w >> 21) & 31) == ld) { stall++;${P(' store<u64>(S + L.STALL_LOADUSE, load<u64>(S + L.STALL_LOADUSE) + 1);')} }
      ld = 0;
    }${P(`
    const sb: i32 = stall;`)}
    switch (w & OP_MASK) {
${cases}
      default: return trapOut(S, pc, n, stall, ld, pw, CAUSE_ILLEGAL, 0);
    }
    // Hardware loops: zero overhead, checked against the active loops' end addresses.
    if ((pc == e0) | (pc == e1)) {
      pc = hwLoopBack(S, pc);
      e0 = hwEnd(S, 0);
      e1 = hwEnd(S, 1);
    }${P(`
    const ho: u32 = ipc - profLo;
    if (ho < profSpan) {
      const hp: usize = L.PROF_HEAT + (<usize>ho << 2);
      const d: i32 = n + 1 + stall - s0;
      store<u32>(hp, load<u32>(hp) + <u32>d);
      store<u32>(hp, load<u32>(hp, 4) + <u32>(d - 1), 4);
    }`)}
    pw = w;
    n++;
  }
  return leave(S, pc, n, stall, ld, pw, STOP_BUDGET);
}`;
}

export function generateAs(): string {
  if (EXEC_ROWS.length + FIRST_OP > MAX_OPS) throw new Error('too many ops for the 9-bit op field');
  return `// @ts-nocheck -- AssemblyScript generated by src/sim/gen/generate.ts from the ISA table. Do not edit.
import * as L from '../layout';
import {
  CAUSE_BREAKPOINT, CAUSE_FETCH_FAULT, CAUSE_FETCH_MISALIGNED, CAUSE_ILLEGAL, CYCLES, IC_L2,
  IC_LINE, INSTRET, L2_BASE, L2_SIZE, LOAD_RD, OP_MASK, OP_UNDECODED, PC, PREV_W, REGS, STOP_BUDGET,
  STOP_ECALL, STOP_EXIT, STOP_SLEEP, HW_START, HW_END, HW_COUNT,
} from '../layout';
import {
  LB, LBU, LH, LHU, LW, SB, SH, SW, clearFault, fault, faultAddr, fetch16, l2Gate, mis1, mis2, mis4, setCurrent, tgt,
} from '../mem';
import { memEvent, yieldReq } from '../periph';
import { icacheFetch, icacheModel } from '../icache';
import { PROF_CONTROLLER, profLo, profRegion, profRegionAt, profSpan, setProfN } from '../profile';
import {
  CSR_CLEAR, CSR_SET, CSR_WRITE, bfExtract, bfExtractU, bfInsert, bfMask, bitrev, clipS, coreState,
  csrAccess, csrExtra, flushICache, hwEnd, hwLoopBack, hwSet, icacheFilled, icacheSlow, leave, pickB, pickH, rnd,
  sraN, srlN, trapOut, wreg,
} from '../core';

export const TABLE_HASH: u32 = ${tableHash()};
export const NUM_OPS: i32 = ${EXEC_ROWS.length + FIRST_OP};

let decImm: i32 = 0;
export function decodedImm(): i32 { return decImm; }

${decoderAs()}

/** Fills a cache entry for the instruction at pc. */
export function decodeAt(e: usize, pc: u32): u32 {
  const lo = fetch16(pc);
  const word = (lo & 3) == 3 ? lo | (fetch16(pc + 2) << 16) : lo;
  const w0 = decode(word);
  store<u32>(e, w0);
  store<i32>(e, decImm, 4);
  icacheFilled(e);
  return w0;
}

${executorAs(false)}

${executorAs(true)}
`;
}

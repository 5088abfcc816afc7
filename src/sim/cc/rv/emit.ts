// MIR after allocation -> GNU assembly text in LLVM's spelling (what src/sim/asm reads), and the
// module's data. Line changes become .loc rows; initialisers over 256 bytes are handed to the
// assembler as bytes (.incbin of an in-memory blob) rather than as text.
import type { IrGlobal } from '../ir';
import { straightAsm } from './hwloop';
import { INVERT, REG_NAMES, type MFunction, type MInst } from './mir';

export class AsmWriter {
  readonly lines: string[] = [];
  readonly blobs = new Map<string, Uint8Array>();
  private files = new Map<string, number>();
  private lastLoc = '';
  private fnCount = 0;

  /** The whole text: the .file table first (every .loc names one). */
  text(): string {
    const head = [...this.files].map(([f, n]) => `\t.file\t${n} ${JSON.stringify(f)}`);
    return [...head, ...this.lines, ''].join('\n');
  }

  fn(mf: MFunction): void {
    const id = this.fnCount++;
    const label = (b: number): string => `.LBB${id}_${b}`;
    const L = this.lines;
    L.push(mf.section ? `\t.section\t${mf.section},"ax",@progbits` : '\t.text');
    if (!mf.isStatic) L.push(`\t.globl\t${sym(mf.name)}`);
    L.push('\t.p2align\t2', `\t.type\t${sym(mf.name)},@function`, `${sym(mf.name)}:`);
    this.lastLoc = '';
    mf.order.forEach((b, k) => {
      const blk = mf.blocks[b];
      L.push(`${label(b)}:`);
      const next = mf.order[k + 1];
      const insts = padHwLoop(blk.insts);
      for (let i = 0; i < insts.length; i++) {
        const x = insts[i];
        // Fall through instead of jumping to the next block; a branch to the next block over
        // a jump becomes the inverted branch to the jump's target.
        if (x.fmt === 'J' && x.target === next && i === insts.length - 1) continue;
        if (x.fmt === 'HWSETUP') { this.hwSetup(mf, x, insts.slice(i + 1), next, id); continue; }
        if (x.fmt === 'HWEND') { this.hwEnd(b, insts.slice(0, i), id); continue; }
        if ((x.fmt === 'B' || x.fmt === 'BI') && x.target === next && i === insts.length - 2 && insts[i + 1].fmt === 'J' && INVERT[x.op]) {
          this.loc(x.loc);
          const y = { ...x, op: INVERT[x.op], target: insts[i + 1].target };
          L.push(`\t${this.inst(y, label)}`);
          i++;
          continue;
        }
        this.loc(x.loc);
        L.push(`\t${this.inst(x, label)}`);
      }
    });
    L.push(`.Lfunc_end${id}:`, `\t.size\t${sym(mf.name)}, .Lfunc_end${id}-${sym(mf.name)}`, '');
  }

  /**
   * A hardware loop's setup (hwloop.ts): its body starts at the next instruction, 32-bit
   * aligned, and up to its end label holds no compressed instruction (the CV32E40P manual's
   * constraints; the assembler counts the end in words from here).
   */
  private hwSetup(mf: MFunction, x: MInst, rest: MInst[], next: number | undefined, id: number): void {
    if (next !== x.target || rest.length !== 1 || rest[0].fmt !== 'J' || rest[0].target !== next) {
      throw new Error(`the setup of the hardware loop at block ${x.target} does not precede its body`);
    }
    if (!mf.blocks[x.target!].insts.some((y) => y.fmt === 'HWEND')) throw new Error(`block ${x.target} has no hardware loop end`);
    this.loc(x.loc);
    this.lines.push('\t.p2align\t2', '\t.option\tpush', '\t.option\tnorvc', `\tcv.setup\t${x.imm}, ${REG_NAMES[x.uses[0]]}, .LBB${id}_${x.target}_end`);
  }

  /** A hardware loop's end: at least 3 body instructions (nops pad it), none of them a branch, jump or call. */
  private hwEnd(b: number, body: MInst[], id: number): void {
    const bad = body.find((y) => ['B', 'BI', 'J', 'CALL', 'RET', 'HWSETUP', 'HWEND'].includes(y.fmt) || (y.fmt === 'ASM' && !straightAsm(y.asm!.template)));
    if (bad) throw new Error(`'${bad.op}' in the body of the hardware loop at block ${b}`);
    for (let n = body.length; n < 3; n++) this.lines.push('\tnop');
    this.lines.push(`.LBB${id}_${b}_end:`, '\t.option\tpop');
  }

  private loc(loc: string | undefined): void {
    if (!loc || loc === this.lastLoc) return;
    this.lastLoc = loc;
    const i = loc.lastIndexOf(':');
    const file = loc.slice(0, i), line = Number(loc.slice(i + 1));
    if (!file || !Number.isInteger(line)) return;
    let n = this.files.get(file);
    if (n === undefined) { n = this.files.size + 1; this.files.set(file, n); }
    this.lines.push(`\t.loc\t${n} ${line} 0`);
  }

  private inst(x: MInst, label: (b: number) => string): string {
    const r = (v: number): string => REG_NAMES[v];
    const d = x.defs.map(r), u = x.uses.map(r);
    const lo = (): string => (x.sym ? `%lo(${symOff(x.sym, x.imm ?? 0)})` : String(x.imm ?? 0));
    switch (x.fmt) {
      case 'R': return `${x.op}\t${d[0]}, ${u[0]}, ${u[1]}`;
      case 'LRR': return `${x.op}\t${d[0]}, ${u[1]}(${u[0]})`;
      case 'SRR': return `${x.op}\t${u[0]}, ${u[2]}(${u[1]})`;
      case 'RD': return `${x.op}\t${d[0]}, ${u[1]}, ${u[2]}`;
      case 'RDI': return `${x.op}\t${d[0]}, ${u[1]}, ${x.imm}`;
      case 'I': return `${x.op}\t${d[0]}, ${u[0]}, ${lo()}`;
      case 'U': return `lui\t${d[0]}, %hi(${symOff(x.sym!, x.imm ?? 0)})`;
      case 'L': return `${x.op}\t${d[0]}, ${lo()}(${u[0]})`;
      case 'S': return `${x.op}\t${u[0]}, ${lo()}(${u[1]})`;
      case 'LPI': return `${x.op}\t${d[0]}, (${u[0]}), ${x.imm}`;
      case 'SPI': return `${x.op}\t${u[0]}, (${u[1]}), ${x.imm}`;
      case 'LPR': return `${x.op}\t${d[0]}, (${u[0]}), ${u[1]}`;
      case 'SPR': return `${x.op}\t${u[0]}, (${u[1]}), ${u[2]}`;
      case 'B': return `${x.op}\t${u[0]}, ${u[1]}, ${label(x.target!)}`;
      case 'BI': return `${x.op}\t${u[0]}, ${x.imm}, ${label(x.target!)}`;
      case 'J': return `j\t${label(x.target!)}`;
      case 'R1': return `${x.op}\t${d[0]}, ${u[0]}`;
      case 'MV': return `mv\t${d[0]}, ${u[0]}`;
      case 'LI': return `li\t${d[0]}, ${x.imm}`;
      case 'CALL': return x.sym ? `call\t${sym(x.sym)}` : `jalr\t${u[0]}`;
      case 'RET': return 'ret';
      case 'NONE': return x.op;
      case 'HWSETUP': case 'HWEND': throw new Error(`${x.op} outside its place`);
      case 'ASM': {
        const a = x.asm!;
        return a.template.replace(/%(%|\d+)/g, (m, k: string) => {
          if (k === '%') return '%';
          const o = a.operands[Number(k)];
          if (!o) return m;
          if (o.k === 'imm') return String(o.v);
          return o.k === 'def' ? d[o.i] : u[o.i];
        }).split('\n').map((s) => s.trim()).filter(Boolean).join('\n\t');
      }
    }
  }

  global(g: IrGlobal): void {
    const L = this.lines;
    const name = sym(g.name);
    const zero = g.bytes === undefined;
    const section = g.section ?? (zero ? '.bss' : g.readonly ? '.rodata' : '.data');
    const nobits = zero && (section === '.bss' || section.startsWith('.bss.') || section === '.sbss');
    L.push(`\t.section\t${section},"${g.readonly && !zero && !g.section ? 'a' : 'aw'}",@${nobits ? 'nobits' : 'progbits'}`);
    if (!g.isStatic) L.push(`\t.globl\t${name}`);
    L.push(`\t.p2align\t${Math.log2(g.align) | 0}`, `\t.type\t${name},@object`, `${name}:`);
    if (zero) L.push(`\t.zero\t${Math.max(g.size, 1)}`);
    else {
      const bytes = g.bytes!.subarray(0, g.size);
      const relocs = [...g.relocs].sort((a, b) => a.offset - b.offset);
      let at = 0;
      const raw = (to: number): void => {
        if (to <= at) return;
        const chunk = bytes.subarray(at, to);
        if (chunk.length > 256) {
          const id = `${g.name}@${at}`;
          this.blobs.set(id, chunk);
          L.push(`\t.incbin\t${JSON.stringify(id)}`);
        } else for (let k = 0; k < chunk.length; k += 32) L.push(`\t.byte\t${Array.from(chunk.subarray(k, k + 32)).join(',')}`);
        at = to;
      };
      for (const r of relocs) {
        raw(r.offset);
        L.push(`\t.word\t${symOff(r.symbol, r.addend)}`);
        at = r.offset + 4;
      }
      raw(g.size);
      if (g.size === 0) L.push('\t.zero\t1');
    }
    L.push(`\t.size\t${name}, ${Math.max(g.size, 1)}`, '');
  }
}


/** An assembler-safe symbol name: the front end's `.str.N` literals become local `.L` labels. */
export function sym(name: string): string {
  return name.startsWith('.') ? `.L${name}` : name;
}

function symOff(s: string, off: number): string {
  return off ? `${sym(s)}${off > 0 ? '+' : ''}${off}` : sym(s);
}

/**
 * A hardware loop body of fewer than 3 instructions gets nops up to 3: first where the next
 * instruction reads what a load just wrote (the nop takes the cycle the load-use stall would),
 * then at the end.
 */
function padHwLoop(insts: MInst[]): MInst[] {
  const end = insts.findIndex((x) => x.fmt === 'HWEND');
  if (end < 0 || end >= 3) return insts;
  const nop = (): MInst => ({ op: 'nop', fmt: 'NONE', defs: [], uses: [] });
  const body: MInst[] = [];
  let missing = 3 - end;
  insts.slice(0, end).forEach((x, i) => {
    body.push(x);
    const y = insts[i + 1];
    if (missing > 0 && i + 1 < end && ['L', 'LRR', 'LPI', 'LPR'].includes(x.fmt) && y.uses.includes(x.defs[0])) { body.push(nop()); missing--; }
  });
  return [...body, ...insts.slice(end)];
}


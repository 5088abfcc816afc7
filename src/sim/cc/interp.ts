// The IR interpreter: the living definition of what each IR instruction means, and the way the
// front end is tested before the back end exists. Byte-addressed little-endian memory: globals
// from 0x1000, the stack growing down from the top; function addresses are tokens in a range
// no data uses. A tiny host shim provides putchar, exit (and abort); everything else (printf,
// memcpy, ...) comes from C compiled by the front end, e.g. the project's libc.c.
import { isVecOp, type Inst, type IrFunction, type IrModule, type IrType, type Op } from './ir';

export interface RunOptions {
  /** Memory size in bytes (default 16 MiB). */
  memory?: number;
  /** Stop after this many instructions (default 2e9). */
  maxSteps?: number;
  /** Arguments to main (argc/argv are not passed; main() takes none). */
  entry?: string;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  steps: number;
  /** Set when the run stopped for a reason other than exit or return from main. */
  error?: string;
}

type Val = number | bigint;

class Exit { constructor(readonly code: number) {} }
class Trap extends Error {}

const FN_BASE = 0x7f000000;

export function runModule(mods: IrModule | IrModule[], opts: RunOptions = {}): RunResult {
  return new Interp(Array.isArray(mods) ? mods : [mods], opts).run(opts.entry ?? 'main');
}

interface FnInfo {
  f: IrFunction;
  /** The module's own symbols (statics, string literals), which shadow the global ones. */
  local: Map<string, number>;
  localFns: Map<string, FnInfo>;
  slotOffsets: number[];
  frameSize: number;
  /** The frame's alignment: 16, or more for an over-aligned local. */
  frameAlign: number;
  addr: number;
}

class Interp {
  private mem: Uint8Array;
  private dv: DataView;
  private syms = new Map<string, number>();
  private fns = new Map<string, FnInfo>();
  private fnByAddr = new Map<number, FnInfo>();
  private sp: number;
  private out: number[] = [];
  private steps = 0;
  private maxSteps: number;
  private stackLimit = 0;

  constructor(mods: IrModule[], opts: RunOptions) {
    const size = opts.memory ?? 16 << 20;
    this.mem = new Uint8Array(size);
    this.dv = new DataView(this.mem.buffer);
    this.sp = size;
    this.maxSteps = opts.maxSteps ?? 2e9;
    let at = 0x1000;
    let fi = 0;
    const locals = mods.map(() => new Map<string, number>());
    const localFns = mods.map(() => new Map<string, FnInfo>());
    mods.forEach((m, mi) => {
      for (const f of m.functions) {
        let off = 0;
        const slotOffsets = f.slots.map((s) => { off = Math.ceil(off / s.align) * s.align; const o = off; off += s.size; return o; });
        const info: FnInfo = { f, local: locals[mi], localFns: localFns[mi], slotOffsets, frameSize: Math.ceil(off / 16) * 16, frameAlign: Math.max(16, ...f.slots.map((s) => s.align)), addr: FN_BASE + 16 * fi++ };
        this.fnByAddr.set(info.addr, info);
        if (f.isStatic) { locals[mi].set(f.name, info.addr); localFns[mi].set(f.name, info); continue; }
        if (this.fns.has(f.name)) throw new Error(`duplicate definition of '${f.name}'`);
        this.fns.set(f.name, info);
        this.syms.set(f.name, info.addr);
      }
    });
    for (const name of HOST_FUNCS) if (!this.syms.has(name)) this.syms.set(name, FN_BASE - 16 * (HOST_FUNCS.indexOf(name) + 1));
    const placed: [number, number, IrModule['globals'][number]][] = [];
    mods.forEach((m, mi) => {
      for (const g of m.globals) {
        at = Math.ceil(at / g.align) * g.align;
        (g.isStatic ? locals[mi] : this.syms).set(g.name, at);
        if (g.bytes) this.mem.set(g.bytes.subarray(0, g.size), at);
        placed.push([mi, at, g]);
        at += Math.max(g.size, 1);
      }
    });
    this.stackLimit = at + 0x1000;
    for (const [mi, base, g] of placed) for (const r of g.relocs) {
      const s = locals[mi].get(r.symbol) ?? this.syms.get(r.symbol);
      if (s === undefined) throw new Error(`undefined symbol '${r.symbol}' referenced by '${g.name}'`);
      this.dv.setInt32(base + r.offset, (s + r.addend) | 0, true);
    }
  }

  run(entry: string): RunResult {
    const main = this.fns.get(entry);
    if (!main) return { exitCode: -1, stdout: '', steps: 0, error: `no function '${entry}'` };
    let exitCode = 0;
    let error: string | undefined;
    try {
      const r = this.call(main, [], 0);
      exitCode = typeof r === 'number' ? r : Number(r ?? 0);
    } catch (e) {
      if (e instanceof Exit) exitCode = e.code;
      else if (e instanceof Trap) { error = e.message; exitCode = -1; }
      else throw e;
    }
    return { exitCode, stdout: new TextDecoder().decode(Uint8Array.from(this.out)), steps: this.steps, error };
  }

  private host(name: string, args: Val[]): Val | undefined {
    switch (name) {
      case 'putchar': this.out.push(Number(args[0]) & 0xff); return Number(args[0]) & 0xff;
      case 'exit': case '_exit': throw new Exit(Number(args[0]) | 0);
      case 'abort': throw new Exit(134);
      case 'memcpy': case 'memmove': this.mem.copyWithin(Number(args[0]) >>> 0, Number(args[1]) >>> 0, (Number(args[1]) >>> 0) + (Number(args[2]) >>> 0)); return args[0];
      case 'memset': this.mem.fill(Number(args[1]) & 0xff, Number(args[0]) >>> 0, (Number(args[0]) >>> 0) + (Number(args[2]) >>> 0)); return args[0];
      default: throw new Trap(`call to undefined function '${name}'`);
    }
  }

  private call(fi: FnInfo, args: Val[], nfixed: number, argTys?: IrType[]): Val | undefined {
    const f = fi.f;
    const savedSp = this.sp;
    let vaBase = 0;
    if (f.variadic) {
      // The anonymous arguments, laid out as the ilp32 ABI's register save area would hold them.
      let size = 0;
      for (let i = nfixed; i < args.length; i++) size = (argTys?.[i] === 'i64' ? Math.ceil(size / 8) * 8 : size) + (argTys?.[i] === 'i64' ? 8 : 4);
      this.sp = (this.sp - size - 8) & ~7;
      vaBase = this.sp;
      let off = 0;
      for (let i = nfixed; i < args.length; i++) {
        if (argTys?.[i] === 'i64') { off = Math.ceil(off / 8) * 8; this.dv.setBigInt64(vaBase + off, args[i] as bigint, true); off += 8; }
        else { this.dv.setInt32(vaBase + off, Number(args[i]), true); off += 4; }
      }
    }
    this.sp = (this.sp - fi.frameSize) & -fi.frameAlign;
    if (this.sp < this.stackLimit) throw new Trap(`stack overflow in '${f.name}'`);
    const frame = this.sp;
    const regs: Val[] = new Array(f.nregs);
    // Missing arguments (main's argc and argv) read as zero.
    for (let i = 0; i < f.params.length; i++) regs[i] = args[i] ?? (f.params[i] === 'i64' ? 0n : 0);
    const mem = this.mem, dv = this.dv;
    let bi = 0;
    let prev = -1;
    try {
      for (;;) {
        const insts = f.blocks[bi].insts;
        let next = -1;
        let ii = 0;
        // Phis read their operands together, on entry to the block, from the edge taken.
        if (insts[0]?.op === 'phi') {
          const vals: [number, Val][] = [];
          for (; ii < insts.length && insts[ii].op === 'phi'; ii++) {
            const x = insts[ii];
            const k = x.targets!.indexOf(prev);
            if (k < 0) throw new Trap(`${x.loc}: phi in block ${bi} of '${f.name}' has no entry for block ${prev}`);
            vals.push([x.dst, regs[x.args[k]]]);
            this.steps++;
          }
          for (const [d, v] of vals) regs[d] = v;
        }
        for (; ii < insts.length; ii++) {
          const x = insts[ii];
          const a = x.args;
          this.steps++;
          switch (x.op) {
            case 'const': regs[x.dst] = x.imm!; break;
            case 'copy': regs[x.dst] = regs[a[0]]; break;
            case 'phi': throw new Trap(`${x.loc}: phi after another instruction in block ${bi} of '${f.name}'`);
            case 'slot': regs[x.dst] = frame + fi.slotOffsets[x.imm as number]; break;
            case 'addr': {
              const s = fi.local.get(x.sym!) ?? this.syms.get(x.sym!);
              if (s === undefined) throw new Trap(`${x.loc}: undefined symbol '${x.sym}'`);
              regs[x.dst] = s;
              break;
            }
            case 'vastart': regs[x.dst] = vaBase; break;
            case 'load': {
              const p = (regs[a[0]] as number) >>> 0;
              this.check(p, x);
              switch (x.ty) {
                case 'i8': regs[x.dst] = mem[p]; break;
                case 'i16': regs[x.dst] = dv.getUint16(p, true); break;
                case 'i64': regs[x.dst] = dv.getBigInt64(p, true); break;
                default: regs[x.dst] = dv.getInt32(p, true);
              }
              break;
            }
            case 'store': {
              const p = (regs[a[0]] as number) >>> 0;
              this.check(p, x);
              const v = regs[a[1]];
              switch (x.ty) {
                case 'i8': mem[p] = v as number; break;
                case 'i16': dv.setUint16(p, (v as number) & 0xffff, true); break;
                case 'i64': dv.setBigInt64(p, v as bigint, true); break;
                default: dv.setInt32(p, v as number, true);
              }
              break;
            }
            case 'memcpy': {
              const d = (regs[a[0]] as number) >>> 0, s = (regs[a[1]] as number) >>> 0, n = (regs[a[2]] as number) >>> 0;
              if (n) { this.check(d, x); this.check(s, x); this.check(d + n - 1, x); mem.copyWithin(d, s, s + n); }
              break;
            }
            case 'memset': {
              const d = (regs[a[0]] as number) >>> 0, n = (regs[a[2]] as number) >>> 0;
              if (n) { this.check(d, x); this.check(d + n - 1, x); mem.fill((regs[a[1]] as number) & 0xff, d, d + n); }
              break;
            }
            case 'sext': case 'zext': case 'trunc': regs[x.dst] = convert(x.op, x.from!, x.ty, regs[a[0]]); break;
            case 'call': {
              const argv = (x.indirect ? a.slice(1) : a).map((r) => regs[r]);
              let target: FnInfo | undefined;
              let name = x.sym;
              if (x.indirect) {
                const addr = (regs[a[0]] as number) >>> 0;
                target = this.fnByAddr.get(addr);
                if (!target) {
                  const h = HOST_FUNCS.find((n) => this.syms.get(n) === addr);
                  if (!h) throw new Trap(`${x.loc}: call through a bad function pointer 0x${addr.toString(16)}`);
                  name = h;
                }
              } else target = fi.localFns.get(name!) ?? this.fns.get(name!);
              const r = target ? this.call(target, argv, x.nfixed!, x.argTys) : this.host(name!, argv);
              if (x.dst >= 0) regs[x.dst] = r ?? 0;
              break;
            }
            case 'clz': { const v = regs[a[0]] as number; regs[x.dst] = Math.clz32(v); break; }
            case 'ctz': { const v = regs[a[0]] as number; regs[x.dst] = v === 0 ? 32 : 31 - Math.clz32(v & -v); break; }
            case 'popcount': { let v = (regs[a[0]] as number) >>> 0, c = 0; while (v) { v &= v - 1; c++; } regs[x.dst] = c; break; }
            case 'bswap': { const v = regs[a[0]] as number; regs[x.dst] = ((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24); break; }
            case 'asm': throw new Trap(`${x.loc}: inline asm ("${x.asm!.template}") cannot run in the IR interpreter`);
            case 'br': {
              const v = regs[a[0]];
              next = x.targets![v !== 0 && v !== 0n ? 0 : 1];
              break;
            }
            case 'jmp': next = x.targets![0]; break;
            case 'switch': {
              const v = regs[a[0]];
              const bv = typeof v === 'bigint' ? v : BigInt(v);
              const i = x.cases!.indexOf(bv);
              next = x.targets![i + 1];
              break;
            }
            case 'ret': return a.length ? regs[a[0]] : undefined;
            case 'unreachable': throw new Trap(`${x.loc}: reached unreachable code in '${f.name}'`);
            default:
              if (isVecOp(x.op)) { regs[x.dst] = vec32(x.op, x.lane!, regs[a[0]] as number, x.op === 'vsplat' ? 0 : regs[a[1]] as number); break; }
              regs[x.dst] = x.ty === 'i64' ? bin64(x, regs[a[0]] as bigint, regs[a[1]] as bigint) : bin32(x, regs[a[0]] as number, regs[a[1]] as number);
          }
          if (next >= 0) break;
        }
        if (this.steps > this.maxSteps) throw new Trap(`step limit (${this.maxSteps}) reached in '${f.name}'`);
        if (next < 0) throw new Trap(`block ${bi} of '${f.name}' has no terminator`);
        prev = bi;
        bi = next;
      }
    } finally {
      this.sp = savedSp;
    }
  }

  private check(p: number, x: Inst): void {
    if (p < 0x100 || p >= this.mem.length) throw new Trap(`${x.loc}: memory access out of bounds at 0x${p.toString(16)}`);
  }
}

const HOST_FUNCS = ['putchar', 'exit', '_exit', 'abort', 'memcpy', 'memmove', 'memset'];

export function convert(op: 'sext' | 'zext' | 'trunc', from: IrType, to: IrType, v: Val): Val {
  if (op === 'trunc') return typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : v;
  let n: number;
  if (typeof v === 'bigint') return v;
  if (from === 'i8') n = op === 'sext' ? (v << 24) >> 24 : v & 0xff;
  else if (from === 'i16') n = op === 'sext' ? (v << 16) >> 16 : v & 0xffff;
  else n = v;
  if (to === 'i64') return op === 'sext' || from !== 'i32' && from !== 'ptr' ? BigInt(n) : BigInt(n >>> 0);
  return n;
}

export function bin32(x: Inst, a: number, b: number): number {
  switch (x.op) {
    case 'add': return (a + b) | 0;
    case 'sub': return (a - b) | 0;
    case 'mul': return Math.imul(a, b);
    case 'sdiv': if (b === 0) throw new Trap(`${x.loc}: division by zero`); return (a / b) | 0;
    case 'udiv': if (b === 0) throw new Trap(`${x.loc}: division by zero`); return ((a >>> 0) / (b >>> 0)) | 0;
    case 'srem': if (b === 0) throw new Trap(`${x.loc}: division by zero`); return (a % b) | 0;
    case 'urem': if (b === 0) throw new Trap(`${x.loc}: division by zero`); return ((a >>> 0) % (b >>> 0)) | 0;
    case 'and': return a & b;
    case 'or': return a | b;
    case 'xor': return a ^ b;
    case 'shl': return a << (b & 31);
    case 'lshr': return (a >>> (b & 31)) | 0;
    case 'ashr': return a >> (b & 31);
    case 'eq': return a === b ? 1 : 0;
    case 'ne': return a !== b ? 1 : 0;
    case 'slt': return x.ty === 'ptr' ? +((a >>> 0) < (b >>> 0)) : +(a < b);
    case 'sle': return x.ty === 'ptr' ? +((a >>> 0) <= (b >>> 0)) : +(a <= b);
    case 'sgt': return x.ty === 'ptr' ? +((a >>> 0) > (b >>> 0)) : +(a > b);
    case 'sge': return x.ty === 'ptr' ? +((a >>> 0) >= (b >>> 0)) : +(a >= b);
    case 'ult': return +((a >>> 0) < (b >>> 0));
    case 'ule': return +((a >>> 0) <= (b >>> 0));
    case 'ugt': return +((a >>> 0) > (b >>> 0));
    case 'uge': return +((a >>> 0) >= (b >>> 0));
    default: throw new Error(`unknown IR op '${x.op}'`);
  }
}

/** A lane-wise vector op on i32 values of `lane`-bit lanes (ir.ts); the back end's code agrees bit for bit. */
export function vec32(op: Op, lane: 8 | 16, a: number, b: number): number {
  const mask = lane === 8 ? 0xff : 0xffff;
  if (op === 'vsplat') return Math.imul(a & mask, lane === 8 ? 0x01010101 : 0x00010001);
  let r = 0;
  for (let i = 0; i < 32; i += lane) {
    const up = 32 - lane - i;
    const xs = (a << up) >> (32 - lane), ys = (b << up) >> (32 - lane);
    const xu = xs & mask, yu = ys & mask, n = yu & (lane - 1);
    let v: number;
    switch (op) {
      case 'vadd': v = xs + ys; break;
      case 'vsub': v = xs - ys; break;
      case 'vshl': v = xu << n; break;
      case 'vlshr': v = xu >>> n; break;
      case 'vashr': v = xs >> n; break;
      case 'veq': v = -(xs === ys); break;
      case 'vne': v = -(xs !== ys); break;
      case 'vslt': v = -(xs < ys); break;
      case 'vsle': v = -(xs <= ys); break;
      case 'vsgt': v = -(xs > ys); break;
      case 'vsge': v = -(xs >= ys); break;
      case 'vult': v = -(xu < yu); break;
      case 'vule': v = -(xu <= yu); break;
      case 'vugt': v = -(xu > yu); break;
      case 'vuge': v = -(xu >= yu); break;
      default: throw new Error(`unknown vector op '${op}'`);
    }
    r |= (v & mask) << i;
  }
  return r | 0;
}

export function bin64(x: Inst, a: bigint, b: bigint): Val {
  const u = (v: bigint): bigint => BigInt.asUintN(64, v);
  const s = (v: bigint): bigint => BigInt.asIntN(64, v);
  switch (x.op) {
    case 'add': return s(a + b);
    case 'sub': return s(a - b);
    case 'mul': return s(a * b);
    case 'sdiv': if (b === 0n) throw new Trap(`${x.loc}: division by zero`); return s(a / b);
    case 'udiv': if (b === 0n) throw new Trap(`${x.loc}: division by zero`); return s(u(a) / u(b));
    case 'srem': if (b === 0n) throw new Trap(`${x.loc}: division by zero`); return s(a % b);
    case 'urem': if (b === 0n) throw new Trap(`${x.loc}: division by zero`); return s(u(a) % u(b));
    case 'and': return a & b;
    case 'or': return a | b;
    case 'xor': return a ^ b;
    case 'shl': return s(a << (b & 63n));
    case 'lshr': return s(u(a) >> (b & 63n));
    case 'ashr': return a >> (b & 63n);
    case 'eq': return a === b ? 1 : 0;
    case 'ne': return a !== b ? 1 : 0;
    case 'slt': return +(a < b);
    case 'sle': return +(a <= b);
    case 'sgt': return +(a > b);
    case 'sge': return +(a >= b);
    case 'ult': return +(u(a) < u(b));
    case 'ule': return +(u(a) <= u(b));
    case 'ugt': return +(u(a) > u(b));
    case 'uge': return +(u(a) >= u(b));
    default: throw new Error(`unknown IR op '${x.op}'`);
  }
}

// Which memory an instruction may write, for the passes that keep a loaded value across other
// instructions (load forwarding, LICM). Every address is traced back to the object it points
// into: a stack slot, a global, or anything (a parameter, a loaded pointer). Two different
// objects never overlap; two accesses to one object at constant offsets overlap only when their
// bytes do. A slot whose address never leaves the function's own address arithmetic (no call,
// no store of it, no asm, no return, no merge with another pointer) cannot be reached through
// any other pointer, so a store through an unknown pointer, a call or asm leave it alone:
// a kernel's stack copy of its walk stays in registers across the loop that writes the output.
import type { Inst, IrFunction, IrType } from '../ir';
import { asmHasSideEffects, definitions, isCompare, reversePostorder } from './util';

/** The object a value points into: a slot index (>= 0), a global (its name), or ANY. */
type Obj = number | string;
const ANY = -1;
const NONE = -2; // not computed yet (phis in loops)

const BYTES: Record<IrType, number> = { i8: 1, i16: 2, i32: 4, i64: 8, ptr: 4 };

export class Aliasing {
  private readonly obj: Obj[];
  /** Constant byte offset from the object's start, when the address is object + constants. */
  private readonly off: (number | undefined)[];
  /** Slots an unknown pointer may reach. */
  private readonly escaped = new Set<number>();
  /** The objects did not settle (a pathological phi web): every address may be any other. */
  private readonly unknown: boolean;

  constructor(f: IrFunction) {
    const defs = definitions(f);
    const obj: Obj[] = new Array(f.nregs).fill(NONE);
    const off: (number | undefined)[] = new Array(f.nregs).fill(undefined);
    const constOf = (r: number): number | undefined => {
      const d = defs[r];
      return d?.op === 'const' && typeof d.imm === 'number' ? d.imm : undefined;
    };
    const of = (r: number): Obj => (r < f.nregs ? obj[r] : ANY);
    // Forward to a fixpoint (a phi's objects come round its loop). In reverse postorder every definition but a loop's phi inputs comes before its uses: one
    // round settles a function whose phis read nothing unsettled; loops take another or two.
    const order = reversePostorder(f);
    // Values of unreachable blocks (phi inputs along dead edges) are anything, settled.
    const reached = new Uint8Array(f.blocks.length);
    for (const b of order) reached[b] = 1;
    f.blocks.forEach((b, bi) => { if (!reached[bi]) for (const x of b.insts) if (x.dst >= 0) obj[x.dst] = ANY; });
    let changed = true;
    for (let round = 0; changed && round < 20; round++) {
      changed = false;
      let unsettled = false;
      for (const bi of order) {
        for (const x of f.blocks[bi].insts) {
          if (x.dst < 0) continue;
          if (x.args.some((a) => obj[a] === NONE)) unsettled = true;
          let o: Obj = ANY, k: number | undefined;
          switch (x.op) {
            case 'slot': o = x.imm as number; k = 0; break;
            case 'addr': o = x.sym!; k = 0; break;
            case 'copy': o = of(x.args[0]); k = off[x.args[0]]; break;
            case 'add': case 'sub': {
              const [a, c] = x.args.map(of);
              const pa = a !== ANY && a !== NONE, pc = c !== ANY && c !== NONE;
              if (pa && !pc && !(x.op === 'sub' && c === NONE)) {
                o = a;
                const n = constOf(x.args[1]), base = off[x.args[0]];
                k = n !== undefined && base !== undefined ? base + (x.op === 'add' ? n : -n) : undefined;
              } else if (x.op === 'add' && pc && !pa) {
                o = c;
                const n = constOf(x.args[0]), base = off[x.args[1]];
                k = n !== undefined && base !== undefined ? base + n : undefined;
              } else if (a === NONE || c === NONE) o = NONE;
              break;
            }
            case 'phi': {
              o = NONE;
              for (const a of x.args) {
                const p = of(a);
                if (p === NONE) continue;
                o = o === NONE || o === p ? p : ANY;
              }
              break;
            }
          }
          if (o !== obj[x.dst] || (k !== off[x.dst] && x.op !== 'phi')) { obj[x.dst] = o; off[x.dst] = k; changed = true; }
        }
      }
      if (!unsettled) changed = false;
    }
    this.unknown = changed;
    this.obj = obj;
    this.off = off;
    // A slot escapes when a value pointing into it is used other than as an address, by address
    // arithmetic that keeps pointing into it, or in a comparison.
    const slotOf = (r: number): number | undefined => (typeof obj[r] === 'number' && (obj[r] as number) >= 0 ? (obj[r] as number) : undefined);
    for (const b of f.blocks) {
      for (const x of b.insts) {
        x.args.forEach((a, i) => {
          const s = slotOf(a);
          if (s === undefined) return;
          const asAddress = ((x.op === 'load' || x.op === 'memset') && i === 0) || (x.op === 'store' && i === 0) || (x.op === 'memcpy' && i < 2);
          const derived = (x.op === 'add' || x.op === 'sub' || x.op === 'copy' || x.op === 'phi') && x.dst >= 0 && obj[x.dst] === s;
          if (!asAddress && !derived && !isCompare(x.op) && !(x.op === 'sub' && i === 1)) this.escaped.add(s);
        });
      }
    }
  }

  /** May an access of `n` bytes at `a` and one of `m` bytes at `b` overlap? (undefined size: any) */
  mayAlias(a: number, n: number | undefined, b: number, m: number | undefined): boolean {
    const oa = this.objOf(a), ob = this.objOf(b);
    if (this.unknown) return true;
    if (oa === ANY || ob === ANY) {
      const other = oa === ANY ? ob : oa;
      return !(typeof other === 'number' && other >= 0 && !this.escaped.has(other));
    }
    // Two globals may be one place (a linker symbol at a section's start, an alias).
    if (oa !== ob) return typeof oa === 'string' && typeof ob === 'string';
    const ka = this.off[a], kb = this.off[b];
    if (ka === undefined || kb === undefined || n === undefined || m === undefined) return true;
    return ka < kb + m && kb < ka + n;
  }

  /** May x write the `bytes` at address `addr`? */
  mayWrite(x: Inst, addr: number, bytes: number): boolean {
    switch (x.op) {
      case 'store': return this.mayAlias(x.args[0], BYTES[x.ty], addr, bytes);
      case 'memcpy': case 'memset': return this.mayAlias(x.args[0], undefined, addr, bytes);
      case 'call': return this.reachable(addr);
      case 'asm': return asmHasSideEffects(x) && this.reachable(addr);
      default: return false;
    }
  }

  /** Is a load of `bytes` at `addr` inside a stack slot (so it cannot fault, wherever it runs)? */
  inSlot(f: IrFunction, addr: number, bytes: number): boolean {
    const o = this.objOf(addr), k = this.off[addr];
    return typeof o === 'number' && o >= 0 && k !== undefined && k >= 0 && k + bytes <= f.slots[o].size;
  }

  /** Could code that is handed no pointer to it (a callee, asm) reach this address? */
  private reachable(addr: number): boolean {
    const o = this.objOf(addr);
    if (this.unknown) return true;
    return !(typeof o === 'number' && o >= 0 && !this.escaped.has(o));
  }

  private objOf(r: number): Obj {
    const o = r < this.obj.length ? this.obj[r] : ANY;
    return o === NONE ? ANY : o;
  }
}

/** The bytes a load or store of type ty touches. */
export function accessBytes(ty: IrType): number {
  return BYTES[ty];
}


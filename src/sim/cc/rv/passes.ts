// The back end's optional optimisations, in the order they act: the selections instruction
// selection may make (isel.ts: CORE-V forms that do in one instruction what plain RV32 does in
// several), then the block layout clean-ups around register allocation (layout.ts). Each can be
// turned off by name (BackendOptions.disable), and none runs at -O0: what is left is the plain
// selection every program needs. `dpg cc --passes` prints this list after the IR optimiser's.
import type { PassInfo } from '../pass-info';

export interface RvPass extends PassInfo {
  /** Where it acts: instruction selection, or the block layout (before and after allocation). */
  where: 'isel' | 'layout';
  /** Only with the CORE-V extensions (xpulp). */
  corev: boolean;
}

export const RV_PASSES = [
  { name: 'hardware-loops', level: 1, where: 'isel', corev: true, doc: 'counted one-block loops become CORE-V hardware loops (cv.setup): no counter update, test or branch per iteration' },
  { name: 'post-increment', level: 1, where: 'isel', corev: true, doc: 'a load or store followed by its pointer\'s increment becomes one post-increment access (cv.lw rd, (p), c)' },
  { name: 'reg-reg-addressing', level: 1, where: 'isel', corev: true, doc: 'a load or store at base + index (both registers) reads the address itself (cv.lw rd, rs2(rs1))' },
  { name: 'branch-immediate', level: 1, where: 'isel', corev: true, doc: 'a test for equality with a constant in -16..15 branches with cv.beqimm / cv.bneimm (no li)' },
  { name: 'corev-sle', level: 1, where: 'isel', corev: true, doc: '<= and >= as one cv.sle / cv.sleu (not slt + xori)' },
  { name: 'corev-extend', level: 1, where: 'isel', corev: true, doc: '8- and 16-bit sign and zero extensions as one cv.extbs / cv.exths / cv.exthz (not a shift pair)' },
  { name: 'select-min-max', level: 1, where: 'isel', corev: true, doc: 'a branch over an empty block into a phi that picks the larger, the smaller or the absolute value (C\'s ?:) becomes one cv.max / cv.maxu / cv.min / cv.minu / cv.abs' },
  { name: 'simd-min-max', level: 1, where: 'isel', corev: true, doc: 'the packed select (v & m) | (w & ~m), m a lane compare of v and w, becomes cv.max / cv.min' },
  { name: 'lane-extract-insert', level: 1, where: 'isel', corev: true, doc: 'shift-and-mask reads and writes of a byte or half lane become cv.extract(u) / cv.insert' },
  { name: 'simd-scalar-operand', level: 1, where: 'isel', corev: true, doc: 'a packed op with a splatted operand uses its .sc / .sci form (no splat in a register)' },
  { name: 'jump-threading', level: 1, where: 'layout', corev: false, doc: 'branches to a block that only jumps go straight to its target (before and after allocation)' },
  { name: 'rotate-latch', level: 1, where: 'layout', corev: false, doc: 'a latch that jumps back to a test-only loop header gets its own copy of the test (one branch per iteration)' },
  { name: 'load-use-schedule', level: 1, where: 'layout', corev: true, doc: 'before and after allocation, an independent instruction fills the cycle after a load whose result the next one reads (CV32E40P\'s load-use stall)' },
  { name: 'block-chains', level: 1, where: 'layout', corev: false, doc: 'the final block order follows single-entry jump and branch targets: fall-throughs instead of taken branches and jumps' },
] as const satisfies readonly RvPass[];

export type RvPassName = (typeof RV_PASSES)[number]['name'];

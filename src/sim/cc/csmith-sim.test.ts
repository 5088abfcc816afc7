// Differential test of the whole toolchain: csmith programs compiled by our compiler (-O2, CORE-V
// selections), assembled and linked by ours with the bare runtime, run on the simulator, print
// the same checksum as clang-19's builds on qemu-riscv32. 50 fixed seeds (CC_CSMITH_SIM=N for
// more); a seed qemu cannot finish in 5 s, or ours not in 2e9 cycles, is skipped (the benchmark,
// `npm run bench -- csmith-cc`, counts the latter as timeouts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Machine } from '../machine';
import { nodeMachine } from '../node';
import { csmithVsClang } from '../testing/csmith-cc';
import { CLANG_19, CSMITH, QEMU_RISCV32, missing } from '../../testing/requires';

const N = Number(process.env.CC_CSMITH_SIM ?? 50);
const SEEDS = Array.from({ length: N }, (_, i) => 1 + i);

let m: Machine;
beforeAll(async () => { m = await nodeMachine(); });

describe.skipIf(missing(CLANG_19, QEMU_RISCV32, CSMITH))('csmith: our compiler on the simulator vs clang-19 on qemu-riscv32', () => {
  it.for(SEEDS)('seed %d', { timeout: 120_000 }, async (seed, ctx) => {
    const o = await csmithVsClang(m, seed);
    if (o.status === 'skipped' || o.status === 'timeout') ctx.skip();
    expect(o.qemu.stdout).toMatch(/checksum = [0-9A-F]+/);
    expect(o.why).toBeUndefined();
    expect(o.status).toBe('agree');
  });
});

// Differential tests: C programs (hand-written ones and csmith's) built with clang-19 + lld-19
// run on qemu-riscv32 and on our simulator; output and exit code must agree. Each program is
// also built with the CORE-V extensions (post-increment loads, min/max/abs/clip, immediate
// branches, ...), which only our simulator runs; it must print what qemu printed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Machine } from './machine';
import { nodeMachine } from './node';
import { MARCHES, XCV, csmith, differential, handWritten } from './testing/differential';
import { CLANG_19, CSMITH as CSMITH_NEED, QEMU_RISCV32, missing } from '../testing/requires';

/**
 * The unit test's 20 csmith seeds (bench/sim.ts runs hundreds more). Seed 20 is left out: its
 * program runs for minutes on qemu (seeds qemu cannot finish in 5 s are skipped anyway).
 */
const SEEDS = [...Array.from({ length: 19 }, (_, i) => i + 1), 21];
const MAX_CYCLES = 4e9;

let m: Machine;
beforeAll(async () => { m = await nodeMachine(); });

describe.skipIf(missing(CLANG_19, QEMU_RISCV32))('qemu-riscv32 and our simulator agree', () => {
  it.each(handWritten().map((p) => [p.name, p] as const))('on %s (rv32im, rv32imc, CORE-V)', async (_, p) => {
    const plain = await Promise.all(MARCHES.map((march) => differential(m, p, march, MAX_CYCLES)));
    for (const o of plain) {
      expect(o.qemu.exitCode, `qemu on ${o.elf}`).toBe(0);
      expect(o.mismatch, o.elf).toBeUndefined();
    }
    const xcv = await differential(m, p, XCV, MAX_CYCLES, plain[1].qemu);
    expect(xcv.mismatch, xcv.elf).toBeUndefined();
    expect(xcv.ours!.instructions).toBeLessThanOrEqual(plain[1].ours!.instructions);
  });
});

describe.skipIf(missing(CLANG_19, QEMU_RISCV32, CSMITH_NEED))('csmith programs', () => {
  it.for(SEEDS)('seed %d', async (seed, ctx) => {
    const p = csmith(seed);
    const o = await differential(m, p, 'rv32imc', MAX_CYCLES, undefined, 5_000);
    if (o.qemu.timedOut) ctx.skip();
    expect(o.qemu.stdout).toMatch(/checksum = [0-9A-F]+/);
    expect(o.mismatch, o.elf).toBeUndefined();
    const x = await differential(m, p, XCV, MAX_CYCLES, o.qemu);
    expect(x.mismatch, x.elf).toBeUndefined();
  });
});

// The kernels' 32-bit fast paths (iSoftmax, iRMSNorm, iLayerNorm, iNoNorm's parameter walk, RequantShift, RequantizedAdd, 8-bit binary ops,
// requantized iHardswish, byte copies, the requantized convs: depthwise, im2col) against the
// same formulas in 64 bits, straight in C (fastpaths/fastpaths.c): random parameters on both
// sides of each path's exactness bound, inputs at their extremes, odd lengths, 1 to 8 cores.
// Built with the host compiler (portable C) and, where clang-19 is there, checked to compile
// for RV32 with Xpulp (the inline assembly).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile, hostCompiler, KERNELS_DIR, RV32_FLAGS } from '../../sim/run/host';
import { CLANG_19, HOST_CC, missing } from '../../testing/requires';

const cc = hostCompiler();
const sources = ['fastpaths/fastpaths.c', 'rows.c', 'elementwise.c', 'movement.c', 'conv_hwc.c', 'gemm.c'].map((f) => join(KERNELS_DIR, f));
const includes = ['-I', join(KERNELS_DIR, 'fastpaths'), '-I', KERNELS_DIR];

describe.skipIf(missing(HOST_CC))('kernel fast paths vs 64-bit formulas', () => {
  it('every element matches', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-fastpaths-'));
    try {
      const exe = join(dir, 'fastpaths');
      compile(cc!, ['-O2', '-std=c11', '-Wall', '-Werror', ...includes, '-o', exe, ...sources], 'the fast-path harness');
      const r = spawnSync(exe, { encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines.map((l) => l.split(':')[0])).toEqual(['isoftmax', 'irmsnorm', 'ilayernorm', 'inonorm', 'requant_shift', 'rq_add', 'binary', 'hardswish', 'copy_nd', 'convs']);
      for (const l of lines) expect(l).toMatch(/: checked [1-9]\d{4,}, bad 0$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(missing(CLANG_19))('the kernels compile for RV32 with Xpulp', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-fastpaths-rv-'));
    try {
      for (const f of sources.slice(1)) compile('clang-19', [...RV32_FLAGS.xpulp, ...includes, '-c', '-o', join(dir, 'k.o'), f], f);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

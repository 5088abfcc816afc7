// Acceptance for issue #6 (Siracusa, untiled): for every shared test folder and built-in model,
// with 1 and 8 cores, the generated C and the kernel library compile warning-free for RV32
// (clang-19 --target=riscv32-unknown-elf -march=rv32imc -Wall -Werror -ffreestanding, and again
// with the CORE-V extensions and DPG_XPULP), and the same C built for the host with hal_host.c
// gives Errors 0 (the multi-core work split is exact).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config';
import { bindNpzInputs } from '../interpret/npz-io';
import { lowerGraph } from '../lower/lower';
import { readNpz } from '../npz';
import { readOnnx } from '../onnx/read';
import { inferTypes } from '../shapes/infer';
import { buildAndRunHost, crossCompile, KERNELS_DIR, RUNTIME_DIR, RV32_FLAGS } from '../../sim/run/host';
import { codegenTestFolders } from '../../testing/test-folders';
import { testDataFor } from './test-data';
import { generateWithPlan } from '../../testing/tiled-harness';
import { CLANG_19, HOST_CC, missing, OBJDUMP_19 } from '../../testing/requires';

// Each half runs with its tool: the RV32 compile checks with clang-19, the host runs with cc.
const clang = !missing(CLANG_19);
const cc = !missing(HOST_CC);

describe.skipIf(!clang && !cc)('Siracusa untiled C for every shared test and built-in model', () => {
  for (const { dir, name } of codegenTestFolders()) {
    it(name, async () => {
      const graph = inferTypes(readOnnx(readFileSync(join(dir, 'network.onnx')), 'network.onnx'));
      const inputs = bindNpzInputs(graph, readNpz(readFileSync(join(dir, 'inputs.npz')), 'inputs.npz'), 'inputs.npz').inputs;
      const golden = readNpz(readFileSync(join(dir, 'outputs.npz')), 'outputs.npz');
      const lower = lowerGraph(graph, { ...DEFAULT_CONFIG, platform: 'siracusa', tiled: false }, { inputs, check: 'none' });
      expect(lower.failures).toEqual([]);
      const data = testDataFor(graph, lower, inputs, golden);
      for (const cores of [1, 8]) {
        const code = await generateWithPlan(lower, data, { cores, tiled: false });
        expect(code.files.find((f) => f.path === 'Network.c')!.content).toContain(`hal_fork(${cores}, `);
        if (clang) {
          crossCompile(code, RV32_FLAGS.rv32imc);
          crossCompile(code, RV32_FLAGS.xpulp);
        }
        if (cc) expect(buildAndRunHost(code).stdout, `${cores} cores`).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
      }
    });
  }
});

describe.skipIf(missing(CLANG_19, OBJDUMP_19))('Xpulp', () => {
  it('the DPG_XPULP build uses the 4-way int8 dot products and max; the plain RV32IMC build no CORE-V instruction', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dpg-xpulp-'));
    const disasm = (flags: readonly string[], src: string) => {
      const obj = join(dir, `${src}.o`);
      const c = spawnSync('clang-19', [...flags, `-I${RUNTIME_DIR}`, '-c', join(KERNELS_DIR, src), '-o', obj], { encoding: 'utf8' });
      expect(c.status, c.stderr).toBe(0);
      return spawnSync('llvm-objdump-19', ['-d', '--mattr=+xcvsimd,+xcvalu,+xcvmac,+xcvmem,+xcvbi,+xcvbitmanip', obj], { encoding: 'utf8' }).stdout;
    };
    const uses: [string, string[]][] = [['gemm.c', ['cv.sdotsp.b', 'cv.sdotusp.b', 'cv.sdotup.b']], ['conv_hwc.c', ['cv.sdotsp.b', 'cv.sdotusp.b']],
      ['conv.c', ['cv.max']], ['rows.c', ['cv.max']]];
    for (const [src, insns] of uses) {
      const x = disasm(RV32_FLAGS.xpulp, src);
      for (const insn of insns) expect(x, `${src}: ${insn}`).toContain(insn);
      expect(disasm(RV32_FLAGS.rv32imc, src)).not.toContain('cv.');
    }
  });
});

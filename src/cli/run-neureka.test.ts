// Acceptance for N-EUREKA codegen (untiled): `dpg run -p siracusa-neureka --untiled --cc host`
// prints `Errors: 0 out of T` for every shared test folder and built-in model, with the weights
// in L2 and with --neureka-wmem. The host HAL runs each NPU task through neureka_task.c.
// Then `--cc clang` on the simulator (as/neureka.ts) for two networks, tiled, tiled with the
// weight memory, and untiled.
import { describe, expect, it } from 'vitest';
import { codegenTestFolders } from '../testing/test-folders';
import { dpg, EXIT } from './main';
import { HOST_CC, SIRACUSA_TOOLCHAIN, missing } from '../testing/requires';

async function call(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await dpg(argv, (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join('\n'), err: err.join('\n') };
}


for (const wmem of [false, true]) {
  describe.skipIf(missing(HOST_CC))(`dpg run -p siracusa-neureka --untiled --cc host${wmem ? ' --neureka-wmem' : ''}`, () => {
    for (const { dir, name } of codegenTestFolders()) {
      it(name, async () => {
        const r = await call('run', '-p', 'siracusa-neureka', '--untiled', '--cc', 'host', ...(wmem ? ['--neureka-wmem'] : []), '-t', dir);
        expect(r.err).toBe('');
        expect(r.out).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
        expect(r.code).toBe(EXIT.ok);
      });
    }
  });
}

describe.skipIf(missing(SIRACUSA_TOOLCHAIN))('dpg run -p siracusa-neureka --cc clang: NPU layers on the simulator', () => {
  const nets = codegenTestFolders().filter((f) => ['Models/miniMobileNetv2', 'Models/CNN_Linear1'].includes(f.name));
  it('finds the networks', () => expect(nets).toHaveLength(2));
  for (const { dir, name } of nets) {
    it(name, async () => {
      const cycles: number[] = [];
      for (const flags of [[], ['--neureka-wmem'], ['--untiled']]) {
        const r = await call('run', '-p', 'siracusa-neureka', '--cc', 'clang', ...flags, '-t', dir);
        expect(r.out, flags.join(' ')).toMatch(/^Errors: 0 out of [1-9]\d*$/m);
        expect(r.code).toBe(EXIT.ok);
        cycles.push(Number(/^Runtime: (\d+) cycles$/m.exec(r.out)![1]));
      }
      expect(cycles[1]).toBeLessThanOrEqual(cycles[0]); // weights over the weight memory's link, no DMA
    }, 300_000);
  }
});

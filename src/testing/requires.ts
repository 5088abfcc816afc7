// What a test needs from the machine: a tool on PATH (Debian packages, .ci/run installs them)
// or the shared Deeploy test vectors beside the repository. Without one, a test is skipped
// with a line saying why; under CI=true it fails instead, naming what is missing and how to
// install it, so a bare CI machine cannot pass by running nothing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Need {
  /** What is missing, as a message names it: "clang-19", "../shared/deeploy-tests". */
  what: string;
  /** How to get it: "apt-get install clang-19". */
  install: string;
  present(): boolean;
}

const onPath = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

function tool(cmd: string, pkg: string, alternative?: string): Need {
  return {
    what: alternative ? `${cmd} (or ${alternative})` : cmd,
    install: `apt-get install ${pkg}`,
    present: () => onPath(cmd) || (!!alternative && onPath(alternative)),
  };
}

const SHARED = fileURLToPath(new URL('../../../shared/deeploy-tests/', import.meta.url));

export const CLANG_19 = tool('clang-19', 'clang-19');
export const LLD_19 = tool('ld.lld-19', 'lld-19');
export const OBJDUMP_19 = tool('llvm-objdump-19', 'llvm-19');
export const QEMU_RISCV32 = tool('qemu-riscv32', 'qemu-user');
export const CSMITH = tool('csmith', 'csmith libcsmith-dev');
/** A host C compiler: cc, or clang-19 (codegen/host.ts hostCompiler picks the same way). */
export const HOST_CC = tool('cc', 'gcc libc6-dev', 'clang-19');
/** Siracusa builds for the simulator: clang-19 and ld.lld-19. */
export const SIRACUSA_TOOLCHAIN = [CLANG_19, LLD_19];
export const SHARED_TESTS = {
  what: '../shared/deeploy-tests', install: 'put the shared folder (Deeploy test vectors) beside the repository',
  present: () => existsSync(SHARED),
} satisfies Need;

const warned = new Set<string>();

/**
 * For `describe.skipIf` / `it.skipIf`: true when one of `needs` is missing (the tests are
 * skipped, and a line says why). Under CI=true a missing need throws instead: the test file
 * fails with the tool and its package named.
 */
export function missing(...needs: (Need | Need[])[]): boolean {
  const absent = needs.flat().filter((n) => !n.present());
  if (absent.length === 0) return false;
  const why = absent.map((n) => `${n.what} is missing (${n.install})`).join('; ');
  if (process.env.CI === 'true') throw new Error(`CI=true: ${why}; a test that needs it must not be skipped in CI (.ci/run installs the packages)`);
  if (!warned.has(why)) {
    warned.add(why);
    console.warn(`skipping tests: ${why}`);
  }
  return true;
}

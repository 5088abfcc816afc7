// The fuzzer's stages past codegen (src/compiler/fuzz/stages.ts has the ones before): every C
// file the codegen stage generated goes through our C compiler. Pure TypeScript, like the
// compiler: the library's sources come in as an in-memory file system.
// A CcError (or any refusal) on generated code is not an expected refusal but a codegen bug (or a compiler
// one): the stage reports it as 'internal', naming the file, line and construct.
import { fail, PlaygroundError } from '../common/errors';
import type { FuzzStage } from '../compiler/fuzz/stages';
import { need } from '../compiler/fuzz/stages';
import { compileToIr } from './cc/compile';
import { filesFrom, overlay, type SourceFiles } from './cc/fs';
import type { CodegenResult } from '../compiler/codegen/types';
import { platformFor } from '../compiler/platforms';

/** The kernel library, the runtime and the tiny libc as our compiler sees them. */
export interface CLibrary {
  files: SourceFiles;
  /** -I directories (kernels, runtime, the platform's runtime folder). */
  includePaths: readonly string[];
  /** The tiny libc's headers. */
  systemPaths: readonly string[];
}

/** Where the generated files sit in the compiler's file system (first on the include path). */
export const GENERATED_DIR = '/gen';

/** -D flags of the program's build: the Siracusa build's (CORE-V Xpulp), none for the host build of generic code. */
export function programDefines(code: CodegenResult): string[] {
  return platformFor(code.platform as Parameters<typeof platformFor>[0]).runtime ? ['DPG_XPULP'] : [];
}

/** Preprocesses, parses and lowers one generated C file; a compile error becomes an internal error. */
export function frontEndGenerated(code: CodegenResult, path: string, lib: CLibrary): void {
  const generated = filesFrom(new Map(code.files.map((f) => [`${GENERATED_DIR}/${f.path}`, f.content])));
  try {
    compileToIr(`${GENERATED_DIR}/${path}`, {
      files: overlay(generated, lib.files), defines: programDefines(code),
      includePaths: [GENERATED_DIR, ...lib.includePaths], systemPaths: lib.systemPaths,
    });
  } catch (e) {
    if (!(e instanceof PlaygroundError) || e.data.code === 'internal') throw e;
    // Generated C that our compiler refuses: codegen wrote bad C, or the compiler refused good C.
    fail('internal', `the generated C does not compile: ${e.message}`, `cc ${path}`,
      'a bug in codegen or in the C compiler: the generated program must always compile');
  }
}

/** Our C compiler's front end on every generated .c file (the kernel library does not change from case to case). */
export function ccFrontEndStage(lib: CLibrary): FuzzStage {
  return {
    name: 'cc',
    run: (s) => {
      const code = need(s.code, 'generated code');
      for (const f of code.files) if (f.path.endsWith('.c')) frontEndGenerated(code, f.path, lib);
    },
  };
}

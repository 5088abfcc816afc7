// Our freestanding headers: include/*.h are the source, headers.ts embeds them for the browser
// (no file system there). This test keeps the two equal; DPG_WRITE_HEADERS=1 rewrites headers.ts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SYSTEM_HEADERS } from './headers';
import { pp } from './test-util';

const DIR = new URL('./include/', import.meta.url);
const onDisk = () => new Map(readdirSync(DIR).filter((f) => f.endsWith('.h')).sort().map((f) => [f, readFileSync(new URL(f, DIR), 'utf8')]));

function headersSource(files: Map<string, string>): string {
  const rows = [...files].map(([name, text]) => `  [${JSON.stringify(name)}, ${JSON.stringify(text)}],`);
  return `${readFileSync(new URL('./headers.ts', import.meta.url), 'utf8').split('export const SYSTEM_HEADERS')[0]}export const SYSTEM_HEADERS: ReadonlyMap<string, string> = new Map([\n${rows.join('\n')}\n]);\n`;
}

describe('freestanding headers', () => {
  it('headers.ts embeds include/*.h exactly', () => {
    const files = onDisk();
    if (process.env.DPG_WRITE_HEADERS) writeFileSync(new URL('./headers.ts', import.meta.url), headersSource(files));
    expect(new Map(SYSTEM_HEADERS), 'run DPG_WRITE_HEADERS=1 npx vitest run src/sim/cc/headers.test.ts').toEqual(files);
  });

  it('provides every header a freestanding C11 implementation has but stdatomic.h', () => {
    expect([...SYSTEM_HEADERS.keys()].sort()).toEqual(['float.h', 'iso646.h', 'limits.h', 'stdalign.h', 'stdarg.h', 'stdbool.h', 'stddef.h', 'stdint.h', 'stdnoreturn.h']);
  });

  it('define the ilp32 types and limits', () => {
    const inc = [...SYSTEM_HEADERS.keys()].map((h) => `#include <${h}>`).join('\n');
    const tail = pp(`${inc}\n@ INT8_MIN INT32_MAX UINT64_MAX SIZE_MAX INT64_C(5) UINT32_C(7) CHAR_MIN CHAR_MAX LONG_MAX NULL offsetof(S, f) va_arg(ap, int)`).split('@ ')[1];
    expect(tail).toBe('( - 127 - 1 ) 2147483647 18446744073709551615ULL 4294967295U 5LL 7U 0 255 2147483647L ( ( void * ) 0 ) __builtin_offsetof ( S , f ) __builtin_va_arg ( ap , int )');
    const types = pp('#include <stdint.h>\n#include <stddef.h>\n#include <stdarg.h>');
    for (const decl of ['typedef signed char int8_t ;', 'typedef int int32_t ;', 'typedef long long int int64_t ;', 'typedef unsigned int uintptr_t ;',
      'typedef unsigned int size_t ;', 'typedef int ptrdiff_t ;', 'typedef __builtin_va_list va_list ;']) expect(types).toContain(decl);
  });
});

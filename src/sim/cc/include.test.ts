import { describe, expect, it } from 'vitest';
import { pp, ppError, run } from './test-util';

describe('#include', () => {
  it('searches "..." beside the includer first, then -I, then the system folders', () => {
    const files = {
      'src/a.h': 'src_a', 'inc/a.h': 'inc_a', 'inc/b.h': 'inc_b', 'sys/b.h': 'sys_b', 'sys/c.h': 'sys_c',
      'src/main.c': '#include "a.h"\n#include <a.h>\n#include "b.h"\n#include <c.h>\n#include "sub/d.h"', 'src/sub/d.h': '#include "e.h"', 'src/sub/e.h': 'sub_e',
    };
    const r = run('#include "src/main.c"', { files, includePaths: ['inc'], systemPaths: ['sys'] });
    expect(r.tokens.slice(0, -1).map((t) => t.text).join(' ')).toBe('src_a inc_a inc_b sys_c sub_e');
    expect(r.files).toEqual(['main.c', 'src/main.c', 'src/a.h', 'inc/a.h', 'inc/b.h', 'sys/c.h', 'src/sub/d.h', 'src/sub/e.h']);
  });

  it('serves our freestanding headers after everything else', () => {
    expect(pp('#include <stdbool.h>\nbool b = true;')).toBe('_Bool b = 1 ;');
    expect(pp('#include <stdint.h>\n#define X 1\nX', { files: { 'my/stdint.h': 'mine' }, systemPaths: ['my'] })).toBe('mine 1');
  });

  it('gives tokens the file and line they come from', () => {
    const t = run('#include "a.h"\nb', { files: { 'a.h': '\n  a' } }).tokens;
    expect(t.slice(0, 2).map((x) => `${x.text}@${x.file}:${x.line}:${x.col}`)).toEqual(['a@a.h:2:3', 'b@main.c:2:1']);
  });

  it('takes a macro-expanded name', () => {
    expect(pp('#define H "a.h"\n#include H', { files: { 'a.h': 'ok' } })).toBe('ok');
    expect(pp('#define H <a.h>\n#include H', { files: { 'a.h': 'ok' }, includePaths: ['.'] })).toBe('ok');
  });

  it('reads a guarded or #pragma once header once', () => {
    const files = { 'g.h': '#ifndef G_H\n#define G_H\ng\n#endif\n', 'o.h': '#pragma once\no' };
    expect(pp('#include "g.h"\n#include "g.h"\n#include "o.h"\n#include "o.h"\n', { files })).toBe('g o');
    // A header whose guard is undefined in between is read again.
    expect(pp('#include "g.h"\n#undef G_H\n#include "g.h"', { files })).toBe('g g');
    // Not a guard: something after the #endif.
    expect(pp('#include "n.h"\n#include "n.h"', { files: { 'n.h': '#ifndef N\n#define N\n#endif\nn' } })).toBe('n n');
  });

  it('includes the same header again when it is not guarded', () => {
    expect(pp('#include "x.h"\n#include "x.h"', { files: { 'x.h': 'x' } })).toBe('x x');
  });

  it('reports a missing file and runaway recursion', () => {
    expect(ppError('\n#include "nope.h"')).toBe("main.c:2:10: 'nope.h' file not found");
    expect(ppError('#include <nope.h>')).toContain("main.c:1:10: 'nope.h' file not found");
    expect(ppError('#include "main.c"')).toContain('#include nested too deeply (200 levels)');
    expect(ppError('#include nope')).toContain('#include expects "FILENAME" or <FILENAME>');
  });
});

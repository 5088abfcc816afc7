import { describe, expect, it } from 'vitest';
import { filesFrom } from './fs';
import { preprocess, preprocessStream } from './preprocess';

describe('large inputs and the streaming API', () => {
  it('streams the same tokens preprocess() collects, then repeats eof', () => {
    const files = filesFrom({ 'main.c': '#include "h.h"\n#define F(x) x+1\nint a[] = { F(1), F(2) };\n_Pragma("GCC unroll 2") b', 'h.h': '#pragma once\ntypedef int T;' });
    const all = preprocess('main.c', { files }).tokens;
    const s = preprocessStream('main.c', { files });
    const streamed = all.map(() => s.next());
    expect(streamed.map((t) => `${t.kind}:${t.text}`)).toEqual(all.map((t) => `${t.kind}:${t.text}`));
    expect(s.next().kind).toBe('eof');
    expect(s.files).toEqual(['main.c', 'h.h']);
  });

  it('handles a long #elif chain and deep nesting without recursion limits', () => {
    const chain = ['#if X == 0', ...Array.from({ length: 5000 }, (_, k) => `#elif X == ${k + 1}`), '#else', 'none', '#endif', ''].join('\n');
    expect(preprocess('main.c', { files: filesFrom({ 'main.c': `#define X 4321\n${chain}\nk` }) }).tokens.length).toBe(2);
    const nested = `${'#if 1\n'.repeat(3000)}deep\n${'#endif\n'.repeat(3000)}`;
    expect(preprocess('main.c', { files: filesFrom({ 'main.c': nested }) }).tokens[0].text).toBe('deep');
  });

  it('reads a weights-sized table of numbers', () => {
    const row = Array.from({ length: 16 }, (_, k) => String((k * 37) % 256 - 128)).join(', ');
    const text = `#include <stdint.h>\nconst int8_t w[] = {\n${Array.from({ length: 20000 }, () => `  ${row},`).join('\n')}\n};\n`;
    const s = preprocessStream('w.c', { files: filesFrom({ 'w.c': text }) });
    let n = 0;
    while (s.next().kind !== 'eof') n++;
    expect(n).toBeGreaterThan(20000 * 16 * 2);
  });
});

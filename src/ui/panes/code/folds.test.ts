import { describe, expect, it } from 'vitest';
import { braceBlocks, defaultFolds, foldRanges, hiddenLines } from './folds';

const lines = (...l: string[]) => l.join('\n');

describe('braceBlocks', () => {
  it('finds multi-line blocks, tells initializers from function bodies, and skips one-line ones', () => {
    const src = lines(
      'const int8_t w[4] = {', //           1
      '  1, 2,', //                         2
      '  3, 4,', //                         3
      '};', //                              4
      'const int b[2] = {1, 2};', //        5
      'void f(void) {', //                  6
      '  if (x) { y(); }', //               7
      '}', //                               8
    );
    expect(braceBlocks(src)).toEqual([
      { open: 1, close: 4, initializer: true },
      { open: 6, close: 8, initializer: false },
    ]);
  });

  it('ignores braces in comments, strings and character literals', () => {
    const src = lines(
      '/* a { in a comment', //          1
      '   spanning lines } */', //       2
      'const char *s = "{ \\" {";', //  3
      "char c = '{';", //                4
      '// } a line comment', //          5
      'int a[2] = {', //                 6
      '  1, /* } */ 2', //               7
      '};', //                           8
    );
    expect(braceBlocks(src)).toEqual([{ open: 6, close: 8, initializer: true }]);
  });

  it('survives unbalanced braces', () => {
    expect(braceBlocks('}\nint a[1] = {\n 1\n}\n}')).toEqual([{ open: 2, close: 4, initializer: true }]);
    expect(braceBlocks('int a[1] = {\n 1,\n')).toEqual([]);
  });

  it('nests: 2-D initializers and struct bodies', () => {
    const src = lines('int m[2][2] = {', '  {1,', '   2},', '  {3, 4},', '};');
    expect(braceBlocks(src)).toEqual([
      { open: 1, close: 5, initializer: true },
      { open: 2, close: 3, initializer: false },
    ]);
  });
});

describe('fold ranges', () => {
  const big = (name: string, rows: number) => [`const int8_t ${name}[${rows * 4}] = {`, ...Array(rows).fill('  1, 2, 3, 4,'), '};'];

  it('keep the opening line and the closing brace visible', () => {
    const src = lines(...big('a', 3));
    expect(foldRanges(braceBlocks(src))).toEqual([{ start: 1, end: 4 }]);
    // A block whose only inner line is the one with `{`... has nothing to hide.
    expect(foldRanges(braceBlocks('int a[1] = {\n};'))).toEqual([]);
  });

  it('fold by default only initializers hiding at least minLines lines, outermost only', () => {
    const src = lines(
      ...big('small', 3), //                                      1-5
      ...big('large', 20), //                                     6-27
      'void run(void) {', ...Array(30).fill('  step();'), '}', // 28-59
      'int m[2][12] = {', '  {', ...Array(12).fill('    1,'), '  },', '  {', ...Array(12).fill('    2,'), '  },', '};', // 60-89
    );
    const folds = defaultFolds(braceBlocks(src), 8);
    expect(folds).toEqual([{ start: 6, end: 26 }, { start: 60, end: 88 }]);
    expect(hiddenLines(folds)).toBe(20 + 28);
  });
});

import { describe, expect, it } from 'vitest';
import { CcError } from './error';
import { removeSplices, tokenize } from './lex';

const texts = (s: string) => tokenize(s, 'f.c').slice(0, -1).map((t) => t.text);
const kinds = (s: string) => tokenize(s, 'f.c').slice(0, -1).map((t) => t.kind);

describe('tokenizer', () => {
  it('splits identifiers, numbers, literals and punctuators', () => {
    expect(texts('int x=a+++b;')).toEqual(['int', 'x', '=', 'a', '++', '+', 'b', ';']);
    expect(kinds('a 1 "s" \'c\' + @')).toEqual(['ident', 'number', 'string', 'char', 'punct', 'other']);
    expect(texts('a<<=b>>=c...d->e##f')).toEqual(['a', '<<=', 'b', '>>=', 'c', '...', 'd', '->', 'e', '##', 'f']);
  });

  it('reads pp-numbers whole (C99 6.4.8)', () => {
    expect(texts('0x1fU 1.5e+3f 1e-9 .5 08 0x1p-3 12ULL 1.2.3')).toEqual(['0x1fU', '1.5e+3f', '1e-9', '.5', '08', '0x1p-3', '12ULL', '1.2.3']);
    expect(texts('1+2 0xe+1')).toEqual(['1', '+', '2', '0xe+1']);
  });

  it('reads literal prefixes and escapes', () => {
    expect(texts(`L"w" u8"x" u'y' U'z' "a\\"b" '\\''`)).toEqual(['L"w"', 'u8"x"', "u'y'", "U'z'", '"a\\"b"', "'\\''"]);
    expect(kinds(`L"w" u8'x'`)).toEqual(['string', 'ident', 'char']);
  });

  it('turns comments into spacing', () => {
    const t = tokenize('a/* x */b c//d\ne', 'f.c');
    expect(t.map((x) => x.text)).toEqual(['a', 'b', 'c', 'e', '']);
    expect(t.map((x) => x.hasSpace)).toEqual([false, true, true, false, false]);
  });

  it('gives every token file, line, column and its line-start flag', () => {
    const t = tokenize('int a;\n  /* two\nlines */ b\n', 'f.c');
    expect(t.map((x) => [x.text, x.line, x.col, x.atBol])).toEqual([
      ['int', 1, 1, true], ['a', 1, 5, false], [';', 1, 6, false], ['b', 3, 10, true], ['', 4, 1, true],
    ]);
    expect(t[0].file).toBe('f.c');
  });

  it('removes line splices and keeps later line numbers', () => {
    expect(removeSplices('a\\\nb\nc')).toBe('ab\n\nc');
    const t = tokenize('#define X 1 \\\n  + 2\nY', 'f.c');
    expect(t.map((x) => x.text)).toEqual(['#', 'define', 'X', '1', '+', '2', 'Y', '']);
    expect(t[6].line).toBe(3);
    expect(texts('in\\\nt')).toEqual(['int']);
    expect(texts('a\r\nb')).toEqual(['a', 'b']);
  });

  it('reports an unterminated comment at its start', () => {
    expect(() => tokenize('a\n  /* open', 'f.c')).toThrow(CcError);
    expect(() => tokenize('a\n  /* open', 'f.c')).toThrow('f.c:2:3: unterminated comment');
  });

  it('leaves a stray quote as a token of its own', () => {
    expect(kinds("don't")).toEqual(['ident', 'other', 'ident']);
  });
});

describe('tokensToText', () => {
  it('reads back as the same tokens', async () => {
    const { tokensToText } = await import('./preprocess');
    const { run } = await import('./test-util');
    const src = '#define N(x) -x\n#define C(a,b) a b\nint y = N(-1) - N(2);\nC(x,y)C(1,.5) C(1e,+2)\n#pragma GCC unroll 2\nz';
    const toks = run(src).tokens;
    const again = tokenize(tokensToText(toks), 'out.c').map((t) => t.text);
    expect(again).toEqual(['int', 'y', '=', '-', '-', '1', '-', '-', '2', ';', 'x', 'y', '1', '.5', '1e', '+', '2', '#', 'pragma', 'GCC', 'unroll', '2', 'z', '']);
  });
});

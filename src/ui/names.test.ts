import { describe, expect, it } from 'vitest';
import { shortName } from './panes/graph/model';
import { hasHiddenChars, shownName } from './names';

describe('names as shown', () => {
  it('shows bidirectional controls, invisible and control characters as ⟨U+XXXX⟩', () => {
    expect(shownName('evil\u202etxt.exe')).toBe('evil⟨U+202E⟩txt.exe');
    for (const c of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0xfeff, 0x00ad, 0x0000, 0x000a, 0x007f, 0x0085, 0x2028])
      expect(shownName(`a${String.fromCharCode(c)}b`)).toBe(`a⟨U+${c.toString(16).toUpperCase().padStart(4, '0')}⟩b`);
    expect(shownName('a\ud800b')).toBe('a⟨U+D800⟩b');
    expect(hasHiddenChars('x\u2067y')).toBe(true);
    expect(hasHiddenChars('x\u2067y')).toBe(true);
  });
  it('leaves every other name as it is: markup, spaces, non-ASCII, emoji', () => {
    for (const n of ['<img src=x>', 'a b#c&d%e', 'conv_1/Relu:0', 'é中😀', 'ﺍﻟﻌﺮﺑﻴﺔ', 'עברית']) {
      expect(shownName(n)).toBe(n);
      expect(hasHiddenChars(n)).toBe(false);
    }
  });
  it('is what the graph\'s labels show', () => {
    expect(shortName('n\u202e1')).toBe('n⟨U+202E⟩1');
  });
});

describe('messages as shown', () => {
  it('keep their line breaks and tabs, and show the rest escaped', async () => {
    const { shownText } = await import('./names');
    expect(shownText('a\n\tb\u202ec')).toBe('a\n\tb⟨U+202E⟩c');
  });
});

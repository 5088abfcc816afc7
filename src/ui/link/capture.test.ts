import { describe, expect, it } from 'vitest';
import { editHunks } from './capture';

describe('the address bar\'s diffs', () => {
  it('diffs an edited file again only when its base or text changed', () => {
    const base = 'a\nb\nc', text = 'a\nB\nc';
    const h = editHunks('kernels/x.c', base, text);
    // The same texts (as every rewrite of the address passes them): the same hunks, not a new diff.
    expect(editHunks('kernels/x.c', base, text)).toBe(h);
    expect(editHunks('kernels/x.c', base, `${text}\nd`)).not.toBe(h);
    expect(editHunks('kernels/x.c', base, `${text}\nd`)).toEqual([[1, 1, expect.any(String), ['B']], [3, 0, expect.any(String), ['d']]]);
  });
});

import { describe, expect, it } from 'vitest';
import { rowWindow } from './rowWindow';

describe('rowWindow', () => {
  it('renders the rows in view with some on either side, spacers for the rest', () => {
    expect(rowWindow(242, 16, 0, 320, 20)).toEqual({ first: 0, end: 40, padTop: 0, padBottom: 202 * 16 });
    expect(rowWindow(242, 16, 1600, 320, 20)).toEqual({ first: 80, end: 140, padTop: 80 * 16, padBottom: 102 * 16 });
    expect(rowWindow(242, 16, 242 * 16, 320, 20)).toEqual({ first: 222, end: 242, padTop: 222 * 16, padBottom: 0 });
  });
  it('keeps the total height of every row', () => {
    for (const top of [0, 17, 500, 3000, 9999]) {
      const w = rowWindow(300, 18, top, 400, 10);
      expect(w.padTop + (w.end - w.first) * 18 + w.padBottom).toBe(300 * 18);
    }
    expect(rowWindow(0, 18, 0, 400, 10)).toEqual({ first: 0, end: 0, padTop: 0, padBottom: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { freshStages } from '../../stageViews';
import { codeNote } from './note';

describe('code pane note', () => {
  it('asks for a model, then for a compile', () => {
    expect(codeNote(freshStages(), false)).toMatch(/^Load a model/);
    expect(codeNote(freshStages(), true)).toMatch(/^Compile to see the generated C/);
  });

  it('says nothing once there is code', () => {
    expect(codeNote({ ...freshStages(), codegen: { status: 'done', result: { platform: 'generic', cores: 1, files: [], layers: [], buffers: [], totalOutputs: 0, testData: { inputs: 'random', golden: 'reference interpreter' } } } }, true)).toBeNull();
  });

  it('names the failure: codegen itself, or an earlier stage', () => {
    const s = freshStages();
    expect(codeNote({ ...s, codegen: { status: 'error', error: { code: 'not-implemented', what: 'a constant holds 2^40', where: 'node "c1"', hint: 'use 32-bit constants' } } }, true))
      .toBe('Code generation failed: a constant holds 2^40 (use 32-bit constants). No code to show; the error is shown above.');
    expect(codeNote({ ...s, tile: { status: 'error' } }, true)).toMatch(/the tile stage failed/);
    expect(codeNote({ ...s, codegen: { status: 'skipped', reason: 'no reason' } }, true)).toMatch(/skipped: no reason/);
    expect(codeNote({ ...s, lower: { status: 'cancelled' } }, true)).toMatch(/cancelled/);
    expect(codeNote({ ...s, tile: { status: 'running' } }, true)).toMatch(/^Compiling/);
    expect(codeNote({ ...s, codegen: { status: 'running' } }, true)).toBe('Generating C…');
  });
});

// The files a stage's result becomes, for `dpg compile --out` and the UI's downloads.
import type { StageName } from './events';
import type { ParseResult, ReferenceResult } from './stages';
import { writeNpz } from '../compiler/npz';

export interface Artifact {
  path: string;
  data: Uint8Array | string;
}

export function artifactsOf(stage: StageName, result: unknown): Artifact[] {
  switch (stage) {
    case 'parse': {
      const r = result as ParseResult;
      return [{ path: 'summary.json', data: JSON.stringify(r.stats, null, 2) + '\n' }];
    }
    case 'reference': {
      const r = result as ReferenceResult;
      const files: Artifact[] = [{ path: 'outputs.npz', data: writeNpz(r.outputs) }];
      if (r.comparison) files.push({ path: 'comparison.json', data: JSON.stringify(r.comparison, null, 2) + '\n' });
      return files;
    }
    default:
      return [];
  }
}

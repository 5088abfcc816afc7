// What the code pane says instead of code: before a compile, while it runs, or why there is
// no code (a failed or cancelled stage). Pure, from the stage views.
import { STAGES } from '../../../pipeline/results';
import type { StageViews } from '../../stageViews';

export function codeNote(stages: StageViews, hasModel: boolean): string | null {
  const cg = stages.codegen;
  if (cg.status === 'done' && cg.result !== undefined) return null;
  if (!hasModel) return 'Load a model, then compile it to see the C code generated for it.';
  switch (cg.status) {
    case 'running': return 'Generating C…';
    case 'error': {
      const e = cg.error;
      return `Code generation failed: ${e?.what ?? 'unknown error'}${e?.hint ? ` (${e.hint})` : ''}. No code to show; the error is shown above.`;
    }
    case 'skipped': return `Code generation was skipped: ${cg.reason ?? 'not available'}.`;
    case 'cancelled': return 'The compile was cancelled before code generation finished. Compile again to see the code.';
    default: break;
  }
  const before = STAGES.slice(0, STAGES.indexOf('codegen'));
  const failed = before.find((s) => stages[s].status === 'error');
  if (failed) return `No code: the ${failed} stage failed (see the error above), so code generation did not run.`;
  if (before.some((s) => stages[s].status === 'cancelled')) return 'The compile was cancelled before code generation. Compile again to see the code.';
  if (before.some((s) => stages[s].status === 'running')) return 'Compiling… the C code shows here once the codegen stage has run.';
  return 'Compile to see the generated C: Network.c with each layer\'s code, the weights, and the test harness (main.c and its data).';
}

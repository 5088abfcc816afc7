// A layer's steps as C: a fork body per cluster step (run on the cores by hal_fork), a plain
// function per control step (run by the controller itself, e.g. programming the NPU).
export interface Step {
  code: string;
  /** true: every core of the fork runs it; false: the controller runs it once. */
  fork: boolean;
}

export function stepFunctions(id: string, steps: readonly Step[], cores: number, node: string): { lines: string[]; run: string[] } {
  const lines: string[] = [], run: string[] = [];
  steps.forEach((s, k) => {
    const fn = `${id}_${k}`, body = s.code.split('\n').map((x) => `  ${x}`);
    const note = k === 0 ? ` /* ${node} */` : '';
    if (s.fork) {
      lines.push(`static void ${fn}(void *arg) {`, '  (void)arg;', ...body, '}');
      run.push(`  hal_fork(${cores}, ${fn}, NULL);${note}`);
    } else {
      lines.push(`static void ${fn}(void) {`, ...body, '}');
      run.push(`  ${fn}();${note}`);
    }
  });
  return { lines, run };
}

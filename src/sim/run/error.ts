// A run that started but did not end well (a trap, the cycle limit, a deadlock): the error and
// the run's result so far (its output and the simulator's statistics). The pipeline's run stage
// reports both: the result, then the error (a StageError of the 'run' stage).
import { PlaygroundError, type PlaygroundErrorData } from '../../common/errors';
import type { RunResult } from './types';

export class RunError extends PlaygroundError {
  constructor(data: PlaygroundErrorData, readonly result: RunResult) {
    super(data);
    this.name = 'RunError';
  }
}

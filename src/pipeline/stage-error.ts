// A stage that fails but has a result worth showing (the lower stage when a node has no
// kernel: the graph pane still shows every pass). runPipeline reports the result, then the error.
import { PlaygroundError, type PlaygroundErrorData } from '../common/errors';
import type { StageOutcome } from './results';

export class StageError extends PlaygroundError {
  constructor(data: PlaygroundErrorData, readonly partial: StageOutcome) {
    super(data);
    this.name = 'StageError';
  }
}

/**
 * Thrown by a stage that cannot run in this setting (the run stage without a runner for the
 * chosen target): runPipeline reports it as skipped, with the reason, and goes on.
 */
export class SkipStage extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipStage';
  }
}

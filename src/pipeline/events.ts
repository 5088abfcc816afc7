// What the pipeline reports while it works. Every payload is plain data: the worker posts
// these to the UI and the CLI prints them.
import type { PlaygroundErrorData } from '../common/errors';
import type { StageName, StageOutcome } from './results';

export type PipelineEvent =
  | { type: 'progress'; stage: StageName; fraction: number; message: string }
  | ({ type: 'stage' } & StageOutcome)
  | { type: 'skipped'; stage: StageName; reason: string }
  | { type: 'error'; stage: StageName; error: PlaygroundErrorData }
  | { type: 'done'; ok: boolean; ms: number };

export type EventSink = (e: PipelineEvent) => void;

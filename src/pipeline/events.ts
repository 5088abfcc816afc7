// What the pipeline reports while it works. Every payload is plain data: the worker posts
// these to the UI and the CLI prints them.
import type { PlaygroundErrorData } from '../common/errors';

/** The stages in order. Later issues fill in lower, tile, codegen and run. */
export const STAGES = ['parse', 'reference', 'lower', 'tile', 'codegen', 'run'] as const;
export type StageName = (typeof STAGES)[number];

export type PipelineEvent =
  | { type: 'progress'; stage: StageName; fraction: number; message: string }
  | { type: 'stage'; stage: StageName; result: unknown }
  | { type: 'skipped'; stage: StageName; reason: string }
  | { type: 'error'; stage: StageName; error: PlaygroundErrorData }
  | { type: 'done'; ok: boolean; ms: number };

export type EventSink = (e: PipelineEvent) => void;

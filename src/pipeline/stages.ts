// The implementation of each pipeline stage, or null while it does not exist yet.
import type { Config } from './config';
import type { StageName } from './events';
import type { PipelineInput } from './run';

export interface StageContext {
  input: PipelineInput;
  config: Config;
  /** Results of earlier stages, by name, for later stages to read. */
  ctx: Record<string, unknown>;
  progress: (fraction: number, message: string) => void;
}

export type StageImpl = (s: StageContext) => Promise<unknown> | unknown;

export const STAGE_IMPLS: Record<StageName, StageImpl | null> = {
  parse: null,
  reference: null,
  lower: null,
  tile: null,
  codegen: null,
  run: null,
};

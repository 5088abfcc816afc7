// Every step of the tutorial in order: Part I (reading networks), Part II (microLlama on Siracusa),
// Part III (a new operator).
import type { Step } from '../types';
import { PART1 } from './part1';
import { PART2 } from './part2';
import { PART3 } from './part3';

export const STEPS: readonly Step[] = [...PART1, ...PART2, ...PART3];

export const STEP_IDS: readonly string[] = STEPS.map((s) => s.id);

export function stepById(id: string): Step | undefined {
  return STEPS.find((s) => s.id === id);
}

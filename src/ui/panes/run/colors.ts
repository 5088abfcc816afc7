// The phases' colours and names, shared by the timeline (a canvas: concrete colours, not CSS
// variables), the per-layer bars and their legend.
import type { Phase } from '../../../sim/profile/types';
import { PHASES } from '../../../sim/profile/types';

export const PHASE_COLORS: Record<Phase, string> = {
  'dma-in': '#4e79a7',
  'dma-wait': '#f28e2b',
  kernel: '#59a14f',
  'dma-out': '#76b7b2',
  control: '#9c9c9c',
  barrier: '#e8a3a3',
  busy: '#8cc084',
  transfer: '#b07aa1',
  other: '#d3d6db',
};

export const PHASE_NAMES: Record<Phase, string> = {
  'dma-in': 'DMA in (issuing)',
  'dma-wait': 'waiting on DMA',
  kernel: 'kernel (fork to join)',
  'dma-out': 'DMA out (issuing)',
  control: 'control',
  barrier: 'barrier / join wait',
  busy: 'worker busy',
  transfer: 'transfer / NPU task',
  other: 'outside the layers',
};

/** Colours by phase number (PHASES order), for the canvas. */
export const PHASE_COLOR_LIST: readonly string[] = PHASES.map((p) => PHASE_COLORS[p]);

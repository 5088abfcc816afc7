// The energy estimate of a run on the Siracusa model, from GVSoC's Siracusa power-model values
// (gvsoc-pulp pulp/chips/siracusa/power_models/, all at 25 °C and 1.2 V; gvsoc-facts.md section
// 7 cites each file and line). Dynamic energy per event plus the cluster's static power over
// the run's time:
// - every instruction retired by any core: core/riscy.json's 4.98 pJ (every instruction is in
//   power group 0);
// - every TCDM bank access, the cores' loads and stores to L1 and the DMA's words into or out of
//   it: l1/l1.json's 2.124 pJ (GVSoC charges no byte reads; we charge every access);
// - the cluster's leakage (cores, L1 banks, the cluster itself) and its background dynamic power
//   while its clock runs, over cycles / clock.
// L2 accesses have no power model in GVSoC's Siracusa, nor has N-EUREKA: not counted. Scaling:
// the dynamic parts scale with the work (instructions, accesses) and with the voltage squared;
// the static part with the run's time, so with 1 / clock. GVSoC's cluster runs at 50 MHz.

/** One value of the model, with its source. */
interface PowerValue { value: number; unit: 'pJ' | 'W'; source: string }

export const POWER = {
  insn: { value: 4.98, unit: 'pJ', source: 'power_models/core/riscy.json:2-16 (group 0)' },
  tcdm: { value: 2.124280487, unit: 'pJ', source: 'power_models/l1/l1.json:28-97 (read_32, write_32, ...)' },
  coreLeakage: { value: 35.5e-6, unit: 'W', source: 'power_models/core/riscy.json:45-56, per core (9)' },
  l1Leakage: { value: 5.2e-6, unit: 'W', source: 'power_models/l1/l1.json:15-26, per bank (16)' },
  clusterLeakage: { value: 1.1045e-3, unit: 'W', source: 'power_models/cluster.json:2-26 (leakage)' },
  clusterBackground: { value: 2.84e-3, unit: 'W', source: 'power_models/cluster.json:2-26 (background dynamic: clock running)' },
} as const satisfies Record<string, PowerValue>;

/** GVSoC's cluster clock (pulp_open.py:53): the static energy per cycle depends on it. */
export const CLOCK_HZ = 50e6;
const CORES = 9, BANKS = 16;

/** What a run (or a layer of it) did, as the energy model needs it. */
export interface EnergyInput {
  cycles: number;
  instructions: number;
  /** Loads and stores of the cores to L1. */
  tcdmAccesses: number;
  /** Bytes the cluster DMA moved (each word is a TCDM access at its L1 end). */
  dmaBytes: number;
}

/** Joules, by part; `total` is their sum. */
export interface Energy { instructions: number; tcdm: number; static: number; total: number }

/** The cluster's static power: leakage of 9 cores, 16 L1 banks and the cluster, and its background dynamic power. */
export const STATIC_W = CORES * POWER.coreLeakage.value + BANKS * POWER.l1Leakage.value + POWER.clusterLeakage.value + POWER.clusterBackground.value;

export function energyOf(x: EnergyInput, clockHz = CLOCK_HZ): Energy {
  const instructions = x.instructions * POWER.insn.value * 1e-12;
  const tcdm = (x.tcdmAccesses + Math.ceil(x.dmaBytes / 4)) * POWER.tcdm.value * 1e-12;
  const stat = (x.cycles / clockHz) * STATIC_W;
  return { instructions, tcdm, static: stat, total: instructions + tcdm + stat };
}

/** Joules as text in the unit that keeps 3 significant digits readable (nJ, uJ, mJ). */
export function formatEnergy(j: number): string {
  const a = Math.abs(j);
  if (a >= 1e-3) return `${(j * 1e3).toPrecision(3)} mJ`;
  if (a >= 1e-6) return `${(j * 1e6).toPrecision(3)} uJ`;
  return `${(j * 1e9).toPrecision(3)} nJ`;
}

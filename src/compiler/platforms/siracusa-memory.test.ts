// The runtime's link script and the simulator's address map cannot import the platform's facts
// (a linker script; AssemblyScript): they are checked against them here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_STACKS, CORE_STACKS_BYTES, SIRACUSA_MAP, USABLE_L1 } from './siracusa-memory';
import { PLATFORM_DEFS } from '.';
import { PLATFORM_LIMITS } from './limits';
import { siracusa } from './siracusa';
import { siracusaNeureka } from './siracusa-neureka';

const text = (rel: string) => readFileSync(new URL(rel, import.meta.url), 'utf8');
const LEVELS = ['L1', 'L2', 'L3', 'WMEM'] as const;

describe('Siracusa memory facts', () => {
  it('the core stacks take 20 KiB of L1: 241664 B are left', () => {
    expect(CORE_STACKS_BYTES).toBe(20 * 1024);
    expect(USABLE_L1).toBe(241_664);
  });

  it('runtime/siracusa/link.ld has the same memories and core stacks', () => {
    const ld = text('../runtime/siracusa/link.ld');
    const size = (s: string) => Number.parseInt(s, 10) * (s.endsWith('M') ? 1 << 20 : s.endsWith('K') ? 1 << 10 : 1);
    for (const level of LEVELS) {
      const m = new RegExp(`^\\s*${level} \\([rwx]+\\)\\s*: ORIGIN = (0x[0-9A-Fa-f]+), LENGTH = (\\d+[KM]?)$`, 'm').exec(ld);
      expect(m, level).not.toBeNull();
      expect({ level, base: Number(m![1]), bytes: size(m![2]) }).toEqual({ level, ...SIRACUSA_MAP[level] });
    }
    expect(Number(/__controller_stack_size = (0x[0-9a-f]+);/.exec(ld)?.[1])).toBe(CORE_STACKS.controller);
    expect(Number(/__worker_stack_size = (0x[0-9a-f]+);/.exec(ld)?.[1])).toBe(CORE_STACKS.worker);
    expect(Number(/__stacks_bottom = __worker_stacks_top - (\d+) \* __worker_stack_size;/.exec(ld)?.[1])).toBe(CORE_STACKS.workers);
    expect(ld).toContain('__controller_stack_top = ORIGIN(L1) + LENGTH(L1);');
  });

  it("the simulator's address map (sim/as/layout.ts) has the same memories", () => {
    const as = text('../../sim/as/layout.ts');
    const constant = (name: string) => Number(new RegExp(`^export const ${name}: u32 = (0x[0-9a-f]+);`, 'm').exec(as)?.[1]);
    for (const level of LEVELS)
      expect({ level, base: constant(`${level}_BASE`), bytes: constant(`${level}_SIZE`) }).toEqual({ level, ...SIRACUSA_MAP[level] });
  });

  it('the platforms describe their memories from these facts', () => {
    for (const p of [siracusa, siracusaNeureka])
      for (const m of p.memory) expect(m.bytes, `${p.name} ${m.name}`).toBe(SIRACUSA_MAP[m.name as keyof typeof SIRACUSA_MAP].bytes);
    expect(siracusa.limits.l1.max).toBe(USABLE_L1);
    expect(siracusa.limits.l2.max).toBe(SIRACUSA_MAP.L2.bytes);
  });

  it("each platform's config limits are its entry in PLATFORM_LIMITS; the weight memory is allowed where there is one", () => {
    for (const p of Object.values(PLATFORM_DEFS)) {
      expect(p.limits).toBe(PLATFORM_LIMITS[p.name]);
      expect(p.limits.neurekaWmem, p.name).toBe(p.memory.some((m) => m.name === 'WMEM'));
    }
  });
});

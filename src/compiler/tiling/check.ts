// The independent checker of a memory plan. It trusts nothing the solver or allocator said:
// it reads only the buffers (level, offset, bytes, lifetime) and the level sizes, and checks
// that no two buffers live at the same step overlap in address, that every buffer lies inside
// its level, and that addresses are word-aligned.
import type { Buffer, PlanCheck } from './types';

export function checkPlan(buffers: readonly Buffer[], capacity: Record<string, number>): PlanCheck {
  const problems: string[] = [];
  let pairs = 0;
  const byLevel = new Map<string, Buffer[]>();
  for (const b of buffers) {
    const cap = capacity[b.level];
    if (cap === undefined) problems.push(`${b.id}: unknown memory level ${b.level}`);
    else if (b.offset < 0 || b.offset + b.bytes > cap) problems.push(`${b.id}: [${b.offset}, ${b.offset + b.bytes}) lies outside ${b.level} (${cap} B)`);
    if (b.offset % 4 !== 0) problems.push(`${b.id}: offset ${b.offset} is not word-aligned`);
    if (!(b.end > b.start) && b.bytes > 0) problems.push(`${b.id}: empty lifetime [${b.start}, ${b.end})`);
    if (!byLevel.has(b.level)) byLevel.set(b.level, []);
    byLevel.get(b.level)!.push(b);
  }
  // Sweep over time: buffers sorted by start; compare each with those still live.
  for (const list of byLevel.values()) {
    const sorted = [...list].filter((b) => b.bytes > 0).sort((a, b) => a.start - b.start);
    const live: Buffer[] = [];
    for (const b of sorted) {
      for (let i = live.length - 1; i >= 0; i--) if (live[i].end <= b.start) live.splice(i, 1);
      for (const a of live) {
        pairs++;
        if (a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes)
          problems.push(`${a.id} [${a.offset}, ${a.offset + a.bytes}) and ${b.id} [${b.offset}, ${b.offset + b.bytes}) overlap in ${a.level} while both live (steps ${Math.max(a.start, b.start)}..${Math.min(a.end, b.end) - 1})`);
      }
      live.push(b);
    }
  }
  return { ok: problems.length === 0, problems: problems.slice(0, 50), buffersChecked: buffers.length, pairsChecked: pairs };
}

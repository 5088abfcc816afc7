// drop-identity-requants: a RequantShift that changes no value goes. With mul = 2^s, the
// result is x + floor((add + 2^(s-1)) / 2^s), which is x when 0 <= add + 2^(s-1) < 2^s; and the
// clip changes nothing when the value range of x already lies within the output levels.
// Deeploy drops such "unity" requants after Concat, Reshape and Transpose (where they only
// re-state int8); the range analysis proves it wherever it holds.
import { definePass } from '../define';
import { half, readRequant, scalarValue } from '../params';
import { valueRanges } from '../ranges';

export const dropIdentityRequants = definePass({
  name: 'drop-identity-requants',
  doc: 'Removes requants that change no value (mul = 2^s, add = 0, input already within the output range), e.g. after Concat/Reshape/Transpose.',
  rewrite(ed) {
    const ranges = valueRanges(ed.src);
    for (const n of ed.each()) {
      const rq = readRequant(ed, n);
      if (!rq) continue;
      const mul = scalarValue(rq.mul), add = scalarValue(rq.add);
      if (mul !== 2 ** rq.shift || add === undefined) continue;
      const r = add + half(rq.shift);
      if (r < 0 || r >= 2 ** rq.shift) continue;
      const [lo, hi] = ranges.get(n.inputs[0]) ?? [-Infinity, Infinity];
      if (lo < rq.lo || hi > rq.hi) continue;
      ed.bypass(n);
    }
  },
});

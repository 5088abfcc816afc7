import { describe, expect, it } from 'vitest';
import { makeProfile } from '../../../sim/profile/fixture';
import { profileFromWire, profileToWire } from './wire';

describe('profile wire form', () => {
  it('survives JSON and comes back with the same typed arrays', () => {
    const p = makeProfile({ layers: 3, tilesPerLayer: 2 });
    const back = profileFromWire(JSON.parse(JSON.stringify(profileToWire(p))));
    expect(back).toEqual(p);
    expect(back.spans.start).toBeInstanceOf(Float64Array);
    expect(back.spans.lane).toBeInstanceOf(Uint8Array);
    expect(back.heat.pc).toBeInstanceOf(Uint32Array);
  });
});

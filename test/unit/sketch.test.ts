import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimate, mergeSketches, registerOf, SKETCH_ERROR, sketchOf, mergeKept } from '../../shared/core/sketch';

/** A person hash as the app makes them: a keyed HMAC, 32 hex. */
const person = (n: number) => createHmac('sha256', 'sketch-test-key').update(`person|${n}`).digest('hex').slice(0, 32);

/**
 * 120 days of a site whose people come back: on each day, a number of people drawn from a pool that grows with time,
 * some new, most returning; each day's sketch kept as a rollup keeps it.
 */
function days(seed: number) {
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: 120 }, (_, day) => {
    const pool = 500 + day * 400;
    const people = new Set(Array.from({ length: 50 + Math.floor(random() * 3_000) }, () => Math.floor(random() * pool)));
    return { people, sketch: mergeSketches(sketchOf([...people].map(person))) };
  });
}

describe('the people of any period, each once, from the days’ sketches', () => {
  it(`estimates the distinct people of many random windows within ${SKETCH_ERROR * 100}%`, () => {
    const kept = days(20261201);
    let worst = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 119 }), fc.integer({ min: 1, max: 120 }), (start, length) => {
        const window = kept.slice(start, start + length);
        const everyone = new Set<number>();
        for (const day of window) for (const one of day.people) everyone.add(one);
        const truth = everyone.size;
        const estimated = estimate(mergeSketches(...window.map((day) => day.sketch)));
        worst = Math.max(worst, Math.abs(estimated - truth) / truth);
        expect(Math.abs(estimated - truth) / truth).toBeLessThanOrEqual(SKETCH_ERROR);
      }),
      { numRuns: 120, seed: 7 },
    );
    // The stated error is a bound, not the usual error: most windows are far inside it.
    expect(worst).toBeGreaterThan(0);
  });

  it('counts a handful of people exactly, adding a person twice changes nothing, and no people is zero', () => {
    const three = sketchOf([person(1), person(2), person(3), person(2)]);
    expect(estimate(mergeSketches(three))).toBe(3);
    expect(estimate(mergeSketches(three, three))).toBe(3);
    expect(estimate(mergeSketches())).toBe(0);
  });

  it('keeps a day of one person and a day of twenty thousand in the same 16 KB, and merges them to the same estimate', () => {
    const small = mergeSketches(sketchOf([person(1)]));
    const large = mergeSketches(sketchOf(Array.from({ length: 20_000 }, (_, n) => person(n))));
    expect(JSON.stringify(small).length).toBe(JSON.stringify(large).length);
    expect(JSON.stringify(large).length).toBeLessThan(16_400);
    expect(mergeSketches()).toEqual({ sparse: {} });
    expect(estimate(mergeSketches(large, small))).toBe(estimate(large));
    expect(estimate(mergeSketches({ dense: (large as { dense: string }).dense }))).toBe(estimate(large));
  });

  it('keeps a filter cell of few people packed, four characters a register, and of many dense, the same registers either way', () => {
    for (const people of [1, 40, 3_000, 5_000]) {
      const registers = sketchOf(Array.from({ length: people }, (_, n) => person(n)));
      const kept = mergeKept(registers);
      expect(mergeSketches(kept), `${people}`).toEqual(mergeSketches(registers));
      const set = Object.keys(registers).length;
      if (set <= 4_096) expect(kept).toEqual({ packed: expect.any(String) });
      else expect(kept).toEqual({ dense: expect.any(String) });
      if ('packed' in kept) expect(kept.packed).toHaveLength(4 * set);
      // A packed or sparse sketch is estimated from its entries, the same as from all its registers.
      expect(estimate(kept), `${people}`).toBe(estimate(mergeSketches(registers)));
      expect(estimate({ sparse: registers }), `${people}`).toBe(estimate(mergeSketches(registers)));
    }
    // The highest register and rank survive the packing.
    const edge = { sparse: { 16383: 51, 0: 1 } };
    expect(mergeSketches(mergeKept(edge))).toEqual(mergeSketches(edge));
    expect(estimate(mergeKept(mergeKept(sketchOf([person(1)])), sketchOf([person(2)])))).toBe(2);
  });

  it('merges one dense sketch with sparse and packed ones, kept or not, to the same registers as a merge of all of them spread out', () => {
    // A second dense sketch with no register set sends a merge through the register-by-register path.
    const empty = { dense: 'A'.repeat(16_384) };
    const pool = Array.from({ length: 9_200 }, (_, n) => person(n));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8_000 }), fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 4 }), (base, adds) => {
        const dense = mergeSketches(sketchOf(pool.slice(0, base)));
        const others = adds.map((size, i) => {
          const registers = sketchOf(pool.slice(8_000 + 300 * i, 8_000 + 300 * i + size));
          return i % 2 === 0 ? mergeKept(registers) : registers;
        });
        expect(mergeSketches(dense, undefined, ...others)).toEqual(mergeSketches(dense, empty, ...others));
        expect(mergeKept(dense, ...others)).toEqual(mergeKept(dense, empty, ...others));
      }),
      { numRuns: 40, seed: 11 },
    );
    expect(mergeSketches(empty)).toEqual({ sparse: {} });
  });

  it('merges sparse and packed sketches alone to the same dense sketch as the register-by-register merge', () => {
    // An empty dense sketch among them sends the merge through the register-by-register path.
    const empty = { dense: 'A'.repeat(16_384) };
    const pool = Array.from({ length: 10_000 }, (_, n) => person(n));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2_000 }), { maxLength: 5 }), (sizes) => {
        const spread = sizes.map((size, i) => {
          const registers = sketchOf(pool.slice(2_000 * i, 2_000 * i + size));
          return i % 2 === 0 ? mergeKept(registers) : registers;
        });
        expect(mergeSketches(...spread)).toEqual(mergeSketches(empty, ...spread));
      }),
      { numRuns: 40, seed: 12 },
    );
  });

  it('never estimates fewer people when registers rise, so a subset of people is never estimated above its whole', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8_000 }), fc.integer({ min: 0, max: 8_000 }), fc.integer(), (part, more, seed) => {
        const some = Array.from({ length: part }, (_, n) => person(seed + n));
        const all = [...some, ...Array.from({ length: more }, (_, n) => person(seed - n - 1))];
        expect(estimate(mergeKept(sketchOf(some)))).toBeLessThanOrEqual(estimate(mergeSketches(sketchOf(all))));
      }),
      { numRuns: 30, seed: 20261206 },
    );
  });

  it('reads a register and a rank from the hash’s own bits', () => {
    expect(registerOf('00000000000000000000000000000000')).toEqual([0, 51]);
    expect(registerOf('fffc0000000000000000000000000000')).toEqual([16_383, 51]);
    expect(registerOf('00020000000000000000000000000000')).toEqual([0, 1]);
  });
});

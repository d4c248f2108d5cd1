import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../shared/core/same-json';

// The fold writes a document only when it changed: sameJson says whether two would be stored the same, as their JSON
// texts with keys in one order would, without writing either text.

/** The JSON text with every object's keys sorted, as a store would hold it whatever the order they were set in. */
function stored(value: unknown): string {
  return JSON.stringify(value, (_key, held: unknown) =>
    held !== null && typeof held === 'object' && !Array.isArray(held)
      ? Object.fromEntries(Object.entries(held).sort(([a], [b]) => (a < b ? -1 : 1)))
      : held,
  );
}

const document = fc.jsonValue({ maxDepth: 3 }).map((value) => value as unknown);

describe('two documents compared as stored', () => {
  it('are the same exactly when their JSON with sorted keys is', () => {
    fc.assert(
      fc.property(document, document, (a, b) => {
        expect(sameJson(a, b)).toBe(stored(a) === stored(b));
        expect(sameJson(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('take a key holding undefined for no key, in any order, and tell a changed value, a missing key or an array from an object', () => {
    expect(sameJson({ a: 1, b: undefined, c: { d: [1, 2] } }, { c: { d: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 0 })).toBe(false);
    expect(sameJson({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    expect(sameJson({ dense: 'A'.repeat(16_384) }, { dense: `${'A'.repeat(16_383)}B` })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});

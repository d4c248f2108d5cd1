/** A 32-hex stand-in for a hash from a number, as the queue's schema and a visitor record's id take it. */
export const hex = (n: number) => n.toString(16).padStart(32, '0');

/** A small deterministic random source (mulberry32), so a bench makes the same traffic, or throttles the same calls, each run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Whether two documents would be stored the same: equal as JSON, a key holding undefined being no key, in any key
 * order. Unlike comparing their JSON texts, it writes no string and stops at the first difference.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (left[key] === undefined) continue;
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
    keys += 1;
  }
  for (const key in right) if (right[key] !== undefined) keys -= 1;
  return keys === 0;
}

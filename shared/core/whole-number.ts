import { z } from 'zod';

/** Digits only, since a looser read would take `0x2`, `1e1` or ` 2` for a count. */
export function wholeNumberText(min: number, max: number, fallback: number, message = `must be a whole number from ${min} to ${max}`) {
  return z.string().regex(/^\d+$/, message).transform(Number).pipe(z.number().min(min, message).max(max, message)).default(fallback);
}

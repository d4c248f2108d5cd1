import { OTHER_PATHS, TOP_PATHS } from './store/activity';

/** Keeps the `cap` largest names and sums the rest under OTHER_PATHS, so a document stays bounded and still adds up. */
export function addCapped(kept: Record<string, number>, more: Record<string, number>, cap = TOP_PATHS): Record<string, number> {
  const sum: Record<string, number> = { ...kept };
  for (const [name, count] of Object.entries(more)) sum[name] = (sum[name] ?? 0) + count;
  const named = Object.entries(sum).filter(([name]) => name !== OTHER_PATHS);
  if (named.length < cap || (named.length === cap && sum[OTHER_PATHS] === undefined)) return sum;
  named.sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const top = named.slice(0, cap - 1);
  const other = named.slice(cap - 1).reduce((total, [, count]) => total + count, sum[OTHER_PATHS] ?? 0);
  return { ...Object.fromEntries(top), [OTHER_PATHS]: other };
}

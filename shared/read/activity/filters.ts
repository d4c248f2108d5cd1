import { z } from 'zod';
import { DIMENSIONS, type Dimension, type Filter } from '../../core/rollup/filters';

/** How many filters one read takes, and how long one may be. */
const MOST_FILTERS = 10;
const LONGEST_FILTER = 1_024;

const shape = `each filter is dimension:value (or !dimension:value for "is not"), the dimension one of ${DIMENSIONS.join(', ')}`;

function filterOf(text: string): Filter | string {
  const negated = text.startsWith('!');
  const body = negated ? text.slice(1) : text;
  const colon = body.indexOf(':');
  if (colon < 0) return `"${text.slice(0, 60)}" has no ':': ${shape}`;
  const dimension = body.slice(0, colon);
  const value = body.slice(colon + 1);
  if (!(DIMENSIONS as readonly string[]).includes(dimension)) return `"${dimension.slice(0, 40)}" is not a dimension: ${shape}`;
  if (value.length === 0) return `${dimension} has no value: ${shape}`;
  if (text.length > LONGEST_FILTER) return `must be at most ${LONGEST_FILTER} characters each`;
  // Countries are kept as two capital letters.
  return { dimension: dimension as Dimension, value: dimension === 'country' ? value.toUpperCase() : value, negated };
}

/** AND-ed, split at the first ':', a leading '!' for "is not". */
export const filtersSchema = z
  .array(z.string())
  .optional()
  .transform((texts, context) => {
    const filters: Filter[] = [];
    if ((texts?.length ?? 0) > MOST_FILTERS) context.addIssue({ code: 'custom', message: `takes at most ${MOST_FILTERS} filters` });
    for (const text of texts ?? []) {
      const read = filterOf(text);
      if (typeof read === 'string') context.addIssue({ code: 'custom', message: read });
      // The same filter twice is one filter.
      else if (
        !filters.some((filter) => filter.dimension === read.dimension && filter.value === read.value && filter.negated === read.negated)
      )
        filters.push(read);
    }
    return filters;
  });

export const cellFilter = (filters: readonly Filter[]): Filter | null =>
  filters.length === 1 && !filters[0]!.negated ? filters[0]! : null;

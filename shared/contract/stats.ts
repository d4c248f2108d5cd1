import { z } from 'zod';

// POST /api/v2/query: the documented subset of Plausible's Stats API v2, so tools that speak it read headcount.

export const STATS_METRICS = ['visitors', 'visits', 'pageviews', 'views_per_visit', 'conversion_rate', 'events'] as const;

export const STATS_DIMENSIONS = [
  'time:day',
  'time:hour',
  'event:page',
  'event:goal',
  'visit:entry_page',
  'visit:source',
  'visit:referrer',
  'visit:utm_source',
  'visit:utm_medium',
  'visit:utm_campaign',
  'visit:country',
  'visit:browser',
  'visit:os',
  'visit:device',
] as const;

export const STATS_PERIODS = ['day', '7d', '30d', 'month', 'year', 'all'] as const;

export type StatsMetric = (typeof STATS_METRICS)[number];
export type StatsDimension = (typeof STATS_DIMENSIONS)[number];

const oneOf = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.enum(values, { error: (issue) => `${JSON.stringify(issue.input)} is not a supported ${what}; supported: ${values.join(', ')}` });

const day = z.iso.date({ error: 'must be a day as YYYY-MM-DD' });

export type StatsFilter = ['is' | 'is_not' | 'contains', string, string[]] | ['and', StatsFilter[]];

const leaf = z.tuple([
  oneOf(['is', 'is_not', 'contains'] as const, 'filter operator'),
  oneOf(STATS_DIMENSIONS, 'filter dimension'),
  z.array(z.string().min(1).max(300)).min(1).max(1, 'must hold one value (several values, OR, are not supported)'),
]);

const joined = z.tuple([
  z.literal('and'),
  z
    .array(z.lazy(() => filter))
    .min(1)
    .max(10),
]);

/** A union would say only that neither shape fits: each shape's own words name what is wrong. */
const filter: z.ZodType<StatsFilter> = z
  .array(z.unknown(), { error: 'must be [operator, dimension, [value]] or ["and", [filters]]' })
  .transform((value, ctx) => {
    const read = value[0] === 'and' ? joined.safeParse(value) : leaf.safeParse(value);
    if (read.success) return read.data;
    for (const issue of read.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });

export const statsQuerySchema = z.strictObject({
  site_id: z.string().max(253).optional().meta({ description: "The site's name; the key's own site when absent." }),
  metrics: z.array(oneOf(STATS_METRICS, 'metric')).min(1, 'must name at least one metric').max(STATS_METRICS.length),
  date_range: z.union([oneOf(STATS_PERIODS, 'date_range'), z.tuple([day, day])], {
    error: `must be one of ${STATS_PERIODS.join(', ')}, or two days ["YYYY-MM-DD", "YYYY-MM-DD"]`,
  }),
  dimensions: z.array(oneOf(STATS_DIMENSIONS, 'dimension')).max(1, 'must name at most one dimension').default([]),
  filters: z.array(filter).max(10).default([]),
  order_by: z
    .array(z.tuple([z.string(), z.enum(['asc', 'desc'], { error: 'must be asc or desc' })]))
    .max(1, 'must name at most one order')
    .optional(),
  pagination: z.strictObject({ limit: z.int().min(1).max(10_000).default(10_000), offset: z.int().min(0).default(0) }).optional(),
});

export type StatsQuery = z.infer<typeof statsQuerySchema>;

export const StatsRow = z
  .object({ metrics: z.array(z.number()), dimensions: z.array(z.string()) })
  .meta({ id: 'StatsRow', description: 'The metrics asked, in their order, for one value of the dimension asked (none without).' });

export const StatsAnswer = z
  .object({
    results: z.array(StatsRow),
    meta: z.object({ time_zone: z.string(), people: z.string() }),
    query: z.object({
      site_id: z.string(),
      metrics: z.array(z.string()),
      date_range: z.tuple([z.string(), z.string()]),
      dimensions: z.array(z.string()),
      filters: z.array(z.unknown()),
    }),
  })
  .meta({
    id: 'StatsAnswer',
    description:
      "Plausible's Stats API v2 answer: `visitors` are people each counted once in the period (not a sum of days), as the dashboard shows them.",
  });

export type StatsAnswerBody = z.infer<typeof StatsAnswer>;

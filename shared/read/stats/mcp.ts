import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { STATS_DIMENSIONS, STATS_METRICS, STATS_PERIODS, statsQuerySchema, type StatsQuery } from '../../contract/stats';
import type { Result } from '../../core/result';
import type { StatsAnswerBody } from '../../contract/stats';

/** headcount's words, said once to every assistant that connects. */
export const MCP_INSTRUCTIONS =
  "headcount counts the people who visit a site, each person once however often they come, with no cookies and no addresses kept. `visitors` are people each counted once in the period asked (never a sum of days). A visit is one person's day on the site (not a 30-minute session). A returning person is one seen on a day after their first day. Periods are days ending today: day, 7d, 30d, month, year, all, or two days.";

/** One question, asked as a Stats API query of the key's reach. */
export type AskStats = (query: StatsQuery) => Promise<Result<StatsAnswerBody>>;

const period = z
  .union([z.enum(STATS_PERIODS), z.tuple([z.iso.date(), z.iso.date()])])
  .default('30d')
  .describe('day, 7d, 30d, month, year, all, or two days ["YYYY-MM-DD", "YYYY-MM-DD"]');
const site = z.string().optional().describe("The site's name; the key's own when absent.");
const filters = z
  .array(z.tuple([z.enum(['is', 'is_not']), z.enum(STATS_DIMENSIONS), z.array(z.string()).length(1)]))
  .default([])
  .describe('Each [operator, dimension, [value]], all of them together');

async function answered(ask: AskStats, query: unknown) {
  const parsed = statsQuerySchema.safeParse(query);
  const result = parsed.success ? await ask(parsed.data) : null;
  if (result?.ok) return { content: [{ type: 'text' as const, text: JSON.stringify(result.value) }] };
  const message =
    result === null ? parsed.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') : result.failure.message;
  return { isError: true, content: [{ type: 'text' as const, text: message }] };
}

/** A server a request: Functions keep nothing between requests, so no session is kept either. */
export function statsMcpServer(ask: AskStats): McpServer {
  const server = new McpServer({ name: 'headcount', version: '0.1.0' }, { instructions: MCP_INSTRUCTIONS });
  const all = [...STATS_METRICS.filter((metric) => metric !== 'conversion_rate')];
  server.registerTool(
    'summary',
    { description: "A period's people (each once), visits, pageviews, views per visit and events.", inputSchema: { site, period } },
    (args) => answered(ask, { site_id: args.site, metrics: all, date_range: args.period }),
  );
  server.registerTool(
    'breakdown',
    {
      description: 'A period broken down by one dimension (pages, sources, countries, browsers...), most first.',
      inputSchema: {
        site,
        period,
        dimension: z.enum(STATS_DIMENSIONS),
        metrics: z.array(z.enum(STATS_METRICS)).default(['visitors']),
        filters,
        limit: z.int().min(1).max(100).default(10),
      },
    },
    (args) =>
      answered(ask, {
        site_id: args.site,
        metrics: args.metrics,
        date_range: args.period,
        dimensions: [args.dimension],
        filters: args.filters,
        pagination: { limit: args.limit, offset: 0 },
      }),
  );
  server.registerTool(
    'timeseries',
    { description: 'People, visits and pageviews day by day over a period.', inputSchema: { site, period, filters } },
    (args) =>
      answered(ask, {
        site_id: args.site,
        metrics: ['visitors', 'visits', 'pageviews'],
        date_range: args.period,
        dimensions: ['time:day'],
        filters: args.filters,
      }),
  );
  server.registerTool(
    'compare',
    {
      description: 'Two periods side by side (people each once in each, visits, pageviews), e.g. this month and the last.',
      inputSchema: { site, first: period, second: period, filters },
    },
    async (args) => {
      const ask2 = (range: unknown) => answered(ask, { site_id: args.site, metrics: all, date_range: range, filters: args.filters });
      const [first, second] = await Promise.all([ask2(args.first), ask2(args.second)]);
      return { isError: (first.isError ?? false) || (second.isError ?? false), content: [...first.content, ...second.content] };
    },
  );
  return server;
}

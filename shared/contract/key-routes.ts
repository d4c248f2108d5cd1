import { ApiKeyList, ApiKeyMade, ApiKeyRevoked, keyBodySchema } from './keys';
import { inputs } from './inputs';
import { StatsAnswer, statsQuerySchema } from './stats';
import { error, json, OPERATOR, OPERATOR_ERRORS, ref, sharedAnswer } from './responses';
import type { Route } from './route';

// The read-only API keys: the operator's routes that make, list and revoke them, and the reads a key opens.

inputs.add(keyBodySchema, {
  id: 'ApiKeyBody',
  description: 'A read-only key for one site, or `*` for every site.',
  fields: { name: 'What the key is for, as the list shows it.', site: 'A site of SITES, or `*`; without it, the only site declared.' },
});

inputs.add(statsQuerySchema, {
  id: 'StatsQuery',
  description:
    "Plausible's Stats API v2 query, the documented subset (docs/api-keys.md): one dimension at most, filters `is`, `is_not` (one value each) and `contains` (on the dimension asked), joined by `and`.",
  fields: {
    site_id: "The site's name; the key's own when absent.",
    metrics: 'visitors (people each once), visits, pageviews, views_per_visit, conversion_rate (with event:goal), events.',
    date_range: 'day, 7d, 30d, month, year, all, or two days.',
  },
});

/** A key reads; it opens no admin route. */
export const KEY = [{ apiKey: [] }];

const KEY_ERRORS = {
  '401': error('No key, or a wrong or revoked one (the same message; each counted before it is checked).'),
  '403': error('A site the key does not read (`site_id`).'),
  '429': sharedAnswer('TooManyAttempts'),
};

export const KEY_ROUTES: Route[] = [
  {
    method: 'get',
    path: '/api/admin/keys',
    operationId: 'admin-keys-list',
    summary: 'The API keys',
    description: 'Every API key, newest first, without the key.',
    security: OPERATOR,
    responses: { '200': json('The keys.', ApiKeyList), ...OPERATOR_ERRORS },
  },
  {
    method: 'post',
    path: '/api/admin/keys',
    operationId: 'admin-keys-make',
    summary: 'Make a read-only API key',
    description: "192 bits from the system's cryptographic source, answered once and kept only as its keyed hash.",
    security: OPERATOR,
    requestBody: { required: true, content: { 'application/json': { schema: ref(keyBodySchema) } } },
    responses: { '201': json('Made.', ApiKeyMade), '400': sharedAnswer('BadRequest'), ...OPERATOR_ERRORS },
  },
  {
    method: 'delete',
    path: '/api/admin/keys/{ref}',
    operationId: 'admin-key-revoke',
    summary: 'Revoke an API key',
    description: 'From its next request on, the key is answered 401.',
    security: OPERATOR,
    parameters: [{ name: 'ref', in: 'path', required: true, schema: { type: 'string' }, description: "The key's ref." }],
    responses: { '200': json('Revoked.', ApiKeyRevoked), '404': error('No such key.'), ...OPERATOR_ERRORS },
  },
  {
    method: 'post',
    path: '/api/v2/query',
    operationId: 'stats-query',
    summary: "Plausible's Stats API v2, a subset",
    description:
      "The figures the dashboard shows, asked as Plausible's Stats API v2 asks them, so tools that speak it read headcount. A key makes at most 600 requests an hour (429 with Retry-After past them). What is outside the subset is a 400 naming the field and saying what is supported.",
    security: KEY,
    requestBody: { required: true, content: { 'application/json': { schema: ref(statsQuerySchema) } } },
    responses: { '200': json('The results.', StatsAnswer), '400': sharedAnswer('BadRequest'), ...KEY_ERRORS },
  },
  ...(['post', 'get', 'delete'] as const).map((method): Route => ({
    method,
    path: '/api/mcp',
    operationId: `mcp-${method}`,
    summary: 'MCP, Streamable HTTP, stateless',
    description:
      "The Model Context Protocol for AI assistants (JSON-RPC in a POST, answered as JSON; no session is kept, so GET and DELETE answer 405 from the protocol). Tools: summary, breakdown, timeseries, compare, each a Stats API question within the key's reach.",
    security: KEY,
    ...(method === 'post' ? { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } } : {}),
    responses: {
      ...(method === 'post'
        ? { '200': { description: 'A JSON-RPC answer.', content: { 'application/json': { schema: { type: 'object' } } } } }
        : { '405': error('No session is kept, so only POST is answered.') }),
      '401': KEY_ERRORS['401'],
      '429': KEY_ERRORS['429'],
    },
  })),
];

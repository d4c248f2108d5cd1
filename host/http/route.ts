import type { HttpHandler } from '@azure/functions';
import type { z } from 'zod';
import { asOperator, type OperatorSettings } from '../../shared/http/admin/auth';
import { parseWith } from '../../shared/http/body';
import { corsHeaders, preflight, type CorsPolicy } from '../../shared/http/cors';
import { errorAnswer, type Answer } from '../../shared/http/envelope';
import type { IncomingRequest } from '../../shared/http/request';
import { fail, ok, type Result } from '../../shared/core/result';
import type { SiteRoot } from '../../shared/sites/root';
import type { Root } from '../composition';
import { incoming, response } from './request';
import { siteAnswer } from './site';
import type { ExportFile } from '../../shared/read/export/export';
import { readQuery } from '../../shared/read/activity/query';

/** What a route reads of a request as its use case's typed input, or the 400 naming the bad field. */
export type Input<T> = (request: IncomingRequest) => Result<T>;

/** How a use case's value is answered. */
export type Reply<T> = (value: T) => Answer;

/** 200 with the value as JSON: how most use cases are answered. */
export const json = <T>(value: T): Answer => ({ status: 200, body: value });

/** The query read with a schema, `filter` as a list and any other parameter as its first value. */
export const query =
  <S extends z.ZodType>(schema: S): Input<z.infer<S>> =>
  (request) =>
    readQuery(schema, request);

/** The query read with a schema, a repeated parameter as its last value. */
export const lastValues =
  <S extends z.ZodType>(schema: S): Input<z.infer<S>> =>
  (request) =>
    parseWith(schema, Object.fromEntries(request.query.entries()));

/** A path parameter read with its schema (a bad one named by its name), then the rest of the input. */
export const withParam =
  <S extends z.ZodType, T>(name: string, schema: S, rest: Input<T>): Input<{ param: z.infer<S>; rest: T }> =>
  (request) => {
    const param = parseWith(schema, request.params[name] ?? '', name);
    if (!param.ok) return fail(param.failure);
    const read = rest(request);
    return read.ok ? ok({ param: param.value, rest: read.value }) : fail(read.failure);
  };

/** A route that reads nothing of the request but its site. */
export const nothing: Input<null> = () => ok(null);

/** A use case's result as an answer: the reply to its value, or its failure in the one envelope. */
export const answerOf = <T>(result: Result<T>, reply: Reply<T> = json): Answer =>
  result.ok ? reply(result.value) : errorAnswer(result.failure);

/** An operator's read: the key or a session checked, then its input read and its use case run. */
export function operatorRead<T, V>(
  request: IncomingRequest,
  operator: OperatorSettings,
  input: Input<T>,
  run: (input: T) => Promise<Result<V>>,
  reply?: Reply<V>,
): Promise<Answer> {
  return asOperator(request, operator, async () => {
    const read = input(request);
    if (!read.ok) return errorAnswer(read.failure);
    return answerOf(await run(read.value), reply);
  });
}

/** An operator's read of the site the query names (shared/core/sites/hit-site.ts), as `operatorRead`. */
export function operatorRoute<T, V>(
  input: Input<T>,
  run: (input: T, site: SiteRoot) => Promise<Result<V>>,
  reply?: Reply<V>,
): (root: Root) => HttpHandler {
  return (root) => async (request) => {
    const asked = incoming(request);
    const read = (site: SiteRoot) => operatorRead(asked, root.operator, input, (value) => run(value, site), reply);
    return response(await siteAnswer(asked, root.sites, read, root.operator));
  };
}

/** An operator's route over the whole app (no site), as `operatorRead`. */
export function adminRoute<T, V>(
  input: Input<T>,
  run: (input: T, root: Root, request: IncomingRequest) => Promise<Result<V>>,
  reply?: Reply<V>,
): (root: Root) => HttpHandler {
  return (root) => async (request) => {
    const asked = incoming(request);
    return response(await operatorRead(asked, root.operator, input, (value) => run(value, root, asked), reply));
  };
}

/** A route whose answer is all HTTP (the session's cookies): it reads the request itself. */
export const plainRoute =
  (answer: (request: IncomingRequest, root: Root) => Promise<Answer>): ((root: Root) => HttpHandler) =>
  (root) =>
  async (request) =>
    response(await answer(incoming(request), root));

/** An export's answer: JSON as JSON, CSV as an attachment named for its days. */
export const fileReply = (file: ExportFile): Answer =>
  'json' in file
    ? json(file.json)
    : {
        status: 200,
        body: file.csv,
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${file.filename}"` },
      };

/** The pulse's CORS policy: the allowed origins may read it with a GET, without credentials. */
export const pulseCors = (allowedOrigins: readonly string[]): CorsPolicy => ({
  allowedOrigins,
  methods: ['GET', 'OPTIONS'],
  allowHeaders: [],
  credentials: false,
});

/**
 * A public read, cacheable for a minute: a preflight answered by the policy, and another origin given the figures
 * without CORS headers, so its page cannot read them.
 */
export async function publicRead<V>(request: IncomingRequest, policy: CorsPolicy, run: () => Promise<Result<V>>): Promise<Answer> {
  if (request.method === 'OPTIONS') return preflight(request, policy);
  const cors = corsHeaders(request, policy) ?? {};
  const answer = answerOf(await run());
  return { ...answer, headers: { 'cache-control': 'public, max-age=60', vary: 'Origin', ...cors } };
}

/** A public read of the site the query names (a site not declared is a 400 naming `site`), as `publicRead`. */
export function publicRoute<V>(
  run: (site: SiteRoot) => Promise<Result<V>>,
  policy: (site: SiteRoot) => CorsPolicy,
): (root: Root) => HttpHandler {
  return (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => publicRead(asked, policy(site), () => run(site))));
  };
}

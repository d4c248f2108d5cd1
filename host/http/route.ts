import type { HttpHandler } from '@azure/functions';
import { asOperator, type OperatorSettings } from './admin/auth';
import { corsHeaders, preflight, type CorsPolicy } from './cors';
import { errorAnswer, type Answer } from './envelope';
import type { IncomingRequest } from './request';
import type { Result } from '../../shared/core/result';
import type { SiteRoot } from '../../shared/sites/root';
import type { Root } from '../composition';
import { incoming, response } from './request';
import { siteAnswer } from './site';
import { answerOf, type Reply } from './answer';
import type { Input } from './input';

/** An operator's read: the key or a session checked, then its input read and its use case run. */
export function operatorRead<T, V>(
  request: IncomingRequest,
  operator: OperatorSettings,
  input: Input<T>,
  run: (input: T) => Promise<Result<V>>,
  reply?: Reply<V>,
): Promise<Answer> {
  return asOperator(request, operator, async () => {
    const read = await input(request);
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

/** One function's routes by method, each made once. */
export const byMethod =
  (routes: Readonly<Record<string, (root: Root) => HttpHandler>>): ((root: Root) => HttpHandler) =>
  (root) => {
    const made = new Map(Object.entries(routes).map(([method, make]) => [method, make(root)] as const));
    return (request, context) => made.get(request.method)!(request, context);
  };

/** A route whose answer is all HTTP (the session's cookies): it reads the request itself. */
export const plainRoute =
  (answer: (request: IncomingRequest, root: Root) => Promise<Answer>): ((root: Root) => HttpHandler) =>
  (root) =>
  async (request) =>
    response(await answer(incoming(request), root));

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

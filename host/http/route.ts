import type { HttpHandler } from '@azure/functions';
import { asOperator, type OperatorSettings } from './admin/auth';
import { corsHeaders, preflight, type CorsPolicy } from './cors';
import type { Answer } from './envelope';
import type { IncomingRequest } from './request';
import type { Result } from '../../shared/core/result';
import type { SiteRoot } from '../site-root';
import type { Root } from '../composition';
import { incoming, response } from './request';
import { siteAnswer } from './site';
import { answerInput, answerOf, type Reply } from './answer';
import type { Input } from './input';

export function operatorRead<T, V>(
  request: IncomingRequest,
  operator: OperatorSettings,
  input: Input<T>,
  run: (input: T) => Promise<Result<V>>,
  reply?: Reply<V>,
): Promise<Answer> {
  return asOperator(request, operator, () => answerInput(request, input, run, reply));
}

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

export const byMethod =
  (routes: Readonly<Record<string, (root: Root) => HttpHandler>>): ((root: Root) => HttpHandler) =>
  (root) => {
    const made = new Map(Object.entries(routes).map(([method, make]) => [method, make(root)] as const));
    return (request, context) => made.get(request.method)!(request, context);
  };

export const pulseCors = (allowedOrigins: readonly string[]): CorsPolicy => ({
  allowedOrigins,
  methods: ['GET', 'OPTIONS'],
  allowHeaders: [],
  credentials: false,
});

/** Another origin gets the figures without CORS headers, so its page cannot read them. */
export async function publicRead<V>(request: IncomingRequest, policy: CorsPolicy, run: () => Promise<Result<V>>): Promise<Answer> {
  if (request.method === 'OPTIONS') return preflight(request, policy);
  const cors = corsHeaders(request, policy) ?? {};
  const answer = answerOf(await run());
  return { ...answer, headers: { 'cache-control': 'public, max-age=60', vary: 'Origin', ...cors } };
}

export function publicRoute<V>(
  run: (site: SiteRoot) => Promise<Result<V>>,
  policy: (site: SiteRoot) => CorsPolicy,
): (root: Root) => HttpHandler {
  return (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => publicRead(asked, policy(site), () => run(site))));
  };
}

import type { HttpHandler } from '@azure/functions';
import { refusedGuess, type AdminAccess } from './admin/auth';
import { errorAnswer, type Answer } from './envelope';
import { incoming, response, type IncomingRequest } from './request';
import { answerOf } from './answer';
import type { Input } from './input';
import { clientAddress } from '../../shared/core/identity/address';
import { fail, ok, type Result } from '../../shared/core/result';
import { ALL_SITES } from '../../shared/core/sites/sites';
import { apiKeyId, type ApiKey, type ApiKeys } from '../../shared/core/store/api-keys';
import { API_KEY_SHAPE, apiKeyHash } from '../../shared/read/keys/secrets';
import { spendKeyUse } from '../../shared/read/keys/uses';
import type { SiteReads } from '../../shared/read/links/shared';
import type { Clock } from '../../shared/core/ports/clock';
import type { AskStats } from '../../shared/read/stats/mcp';
import { statsQuery } from '../../shared/read/stats/query';

export interface KeyReadDeps {
  apiKeys: ApiKeys;
  hashKey: string;
  /** The declared sites, the first first. */
  sites: readonly string[];
  /** Undefined for a site no longer declared. */
  readsOf: (site: string) => Promise<SiteReads | undefined>;
  access: AdminAccess;
  usesAnHour: number;
}

/** What a key may read: its own site, or any when it was made for every site. */
export interface KeyReader {
  key: ApiKey;
  site(asked: string | undefined, field: string): Promise<Result<{ name: string; reads: SiteReads }>>;
}

const NO_STORE = { 'cache-control': 'no-store' };

/** One message for a wrong key and a revoked one, so neither tells a guesser which. */
const WRONG = 'The API key is wrong or revoked.';

const bearer = (request: IncomingRequest): string | null => {
  const header = request.header('authorization') ?? '';
  return header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : null;
};

function readerOf(key: ApiKey, deps: KeyReadDeps): KeyReader {
  return {
    key,
    site: async (asked, field) => {
      const name = asked ?? (key.site === ALL_SITES ? deps.sites[0]! : key.site);
      if (key.site !== ALL_SITES && name !== key.site) {
        return fail({ status: 403, code: 'forbidden', message: `${field}: this key reads ${key.site} only` });
      }
      const reads = await deps.readsOf(name);
      return reads === undefined ? fail({ status: 404, code: 'not_found', message: `${field}: no such site` }) : ok({ name, reads });
    },
  };
}

/** The key is counted as a guess before it is checked, then its use is counted before the read runs. */
export async function openKey(
  request: IncomingRequest,
  deps: KeyReadDeps,
): Promise<{ ok: true; reader: KeyReader } | { ok: false; answer: Answer }> {
  const presented = bearer(request);
  if (presented === null || presented === '') {
    const message = 'authorization: send an API key as Authorization: Bearer <key>';
    return {
      ok: false,
      answer: errorAnswer({ status: 401, code: 'unauthorized', message }, { 'www-authenticate': 'Bearer', ...NO_STORE }),
    };
  }
  const { guesses, trustedProxyHops, clock } = deps.access;
  const address = clientAddress(request.header('x-forwarded-for'), trustedProxyHops);
  const found: { key: ApiKey | null } = { key: null };
  const guessed = await guesses.checked('api-key', address, async () => {
    const read = API_KEY_SHAPE.test(presented) ? await deps.apiKeys.read(apiKeyId(apiKeyHash(deps.hashKey, presented))) : null;
    found.key = read?.doc.revoked_at === null ? read.doc : null;
    return found.key !== null;
  });
  if (guessed.outcome !== 'right') return { ok: false, answer: refusedGuess(guessed, WRONG, { 'www-authenticate': 'Bearer' }) };
  const key = found.key!;
  const spent = await spendKeyUse(deps.apiKeys, key.ref, clock.now(), deps.usesAnHour);
  if (!spent.ok) {
    const message = `this key has made its ${deps.usesAnHour} requests of this hour; retry after ${spent.wait} s`;
    return { ok: false, answer: errorAnswer({ status: 429, code: 'rate_limited', message, retryAfter: spent.wait }, NO_STORE) };
  }
  return { ok: true, reader: readerOf(key, deps) };
}

export function keyRoute<T, V>(input: Input<T>, run: (input: T, reader: KeyReader) => Promise<Result<V>>) {
  return (root: { keyed: KeyReadDeps }): HttpHandler =>
    async (request) => {
      const asked = incoming(request);
      const opened = await openKey(asked, root.keyed);
      if (!opened.ok) return response(opened.answer);
      const read = await input(asked);
      const answer = read.ok ? answerOf(await run(read.value, opened.reader)) : errorAnswer(read.failure);
      return response({ ...answer, headers: { ...NO_STORE, ...answer.headers } });
    };
}

/** A Stats API question asked within the key's reach, today by the clock. */
export const keyedStats =
  (reader: KeyReader, clock: Clock, field: string): AskStats =>
  async (asked) => {
    const site = await reader.site(asked.site_id, field);
    if (!site.ok) return site;
    return statsQuery(asked, { name: site.value.name, activity: await site.value.reads.activity(), today: clock.now() });
  };

import type { z } from 'zod';
import type { keyBodySchema, ApiKeyListAnswer, ApiKeyMadeAnswer, ApiKeyRevokedAnswer, ApiKeyRowAnswer } from '../../contract/keys';
import type { Clock } from '../../core/ports/clock';
import { fail, ok, type Result } from '../../core/result';
import { hitSite, readSite } from '../../core/sites/hit-site';
import { ALL_SITES, type Site } from '../../core/sites/sites';
import { API_KEYS_PK, apiKeyId, type ApiKey, type ApiKeys } from '../../core/store/api-keys';
import { newRef } from '../links/secrets';
import { apiKeyHash, newApiKey } from './secrets';

export interface KeyAdminDeps {
  apiKeys: ApiKeys;
  /** As the configuration names them now. */
  sites: () => Promise<readonly Site[]>;
  clock: Clock;
  hashKey: string;
}

/** Never the key nor its keyed hash. */
const keyRow = (key: ApiKey): ApiKeyRowAnswer => ({
  ref: key.ref,
  name: key.name,
  site: key.site,
  created_at: key.created_at,
  revoked_at: key.revoked_at,
});

export async function createApiKey(asked: z.infer<typeof keyBodySchema>, deps: KeyAdminDeps): Promise<Result<ApiKeyMadeAnswer>> {
  const sites = await deps.sites();
  const site =
    asked.site === ALL_SITES ? ok(ALL_SITES) : asked.site === undefined ? hitSite(undefined, sites, 'site') : readSite(asked.site, sites);
  if (!site.ok) return site;
  const key = newApiKey();
  const doc: ApiKey = {
    id: apiKeyId(apiKeyHash(deps.hashKey, key)),
    pk: API_KEYS_PK,
    kind: 'api-key',
    ref: newRef(),
    name: asked.name,
    site: site.value,
    created_at: deps.clock.now().toISOString(),
    revoked_at: null,
  };
  await deps.apiKeys.create(doc);
  // The key is answered once, here, and kept nowhere: a lost key is revoked and made again.
  return ok({ key, api_key: keyRow(doc) });
}

export async function listApiKeys(deps: Pick<KeyAdminDeps, 'apiKeys'>): Promise<Result<ApiKeyListAnswer>> {
  const keys = await deps.apiKeys.list();
  return ok({ keys: keys.sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map(keyRow) });
}

export async function revokeApiKey(ref: string, deps: KeyAdminDeps): Promise<Result<ApiKeyRevokedAnswer>> {
  const read = /^[0-9a-f]{16}$/.test(ref) ? await deps.apiKeys.byRef(ref) : null;
  if (read === null) return fail({ status: 404, code: 'not_found', message: 'ref: no such key' });
  const revoked = { ...read.doc, revoked_at: read.doc.revoked_at ?? deps.clock.now().toISOString() };
  // A replace that lost a race to another revoke leaves the key revoked all the same.
  await deps.apiKeys.replace(revoked, read.etag);
  return ok({ api_key: keyRow(revoked) });
}

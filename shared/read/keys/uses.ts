import { retryConditionalWrite } from '../../core/store/conditional-write';
import { API_KEYS_PK, apiKeyUseId, type ApiKeys, type ApiKeyUse } from '../../core/store/api-keys';

/** Plausible's Stats API allows 600 requests an hour a key; so does this. */
export const KEY_USES_AN_HOUR = 600;

const HOUR_MS = 3_600_000;

export type Spent = { ok: true } | { ok: false; wait: number };

/** Counted in the store before the read runs, so instances and restarts share one count; a refused use is not counted. */
export async function spendKeyUse(apiKeys: ApiKeys, ref: string, now: Date, limit = KEY_USES_AN_HOUR): Promise<Spent> {
  const id = apiKeyUseId(ref, now.toISOString().slice(0, 13));
  let over = false;
  await retryConditionalWrite(
    apiKeys.uses,
    [id],
    async (current): Promise<ApiKeyUse | null> => {
      const uses = current?.uses ?? 0;
      over = uses >= limit;
      return over ? null : { id, pk: API_KEYS_PK, kind: 'api-key-use', uses: uses + 1, ttl: 2 * 3_600 };
    },
    "an API key's uses",
  );
  if (!over) return { ok: true };
  return { ok: false, wait: Math.ceil((HOUR_MS - (now.getTime() % HOUR_MS)) / 1000) };
}

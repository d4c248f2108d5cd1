import type { OperatorSettings } from './admin/auth';
import { operatorCookieValue } from '../../shared/core/identity/tokens';
import { ok, type Result } from '../../shared/core/result';

/** The fragment the snippet reads to mark a browser as the operator's (`off` removes the mark). */
export const MARK_FRAGMENT = '#headcount-operator=';

/** What the mark reads: the operator's settings that guard and make it, and the sites that run the snippet. */
export interface MarkSettings extends OperatorSettings {
  allowedOrigins: readonly string[];
}

/**
 * GET /api/admin/mark: the operator's mark, and on each allowed site the one link that sets it in a browser and the
 * one that removes it. The mark is the operator cookie's value, a keyed hash nobody without the key can make, so a
 * beacon that carries it is checked by the server, never taken on its word. Only the operator key may read it.
 */
export async function operatorMark(settings: MarkSettings): Promise<Result<{ token: string; links: object[] }>> {
  const token = operatorCookieValue(settings.hashKey);
  const links = settings.allowedOrigins.map((site) => ({
    site,
    mark: `${site}/${MARK_FRAGMENT}${token}`,
    unmark: `${site}/${MARK_FRAGMENT}off`,
  }));
  return ok({ token, links });
}

import type { OperatorSettings } from './admin/auth';
import { operatorCookieValue } from '../../shared/core/identity/tokens';
import { ok, type Result } from '../../shared/core/result';
import type { OperatorMarkAnswer } from '../../shared/contract/admin';

/** The fragment the snippet reads to mark a browser as the operator's (`off` removes the mark). */
export const MARK_FRAGMENT = '#headcount-operator=';

export interface MarkSettings extends OperatorSettings {
  /** The sites' origins as the configuration names them now. */
  allowedOrigins: () => Promise<readonly string[]>;
}

/** The mark is a keyed hash, so the server checks a beacon that carries it, never taking it on its word. */
export async function operatorMark(settings: MarkSettings): Promise<Result<OperatorMarkAnswer>> {
  const token = operatorCookieValue(settings.hashKey);
  const links = (await settings.allowedOrigins()).map((site) => ({
    site,
    mark: `${site}/${MARK_FRAGMENT}${token}`,
    unmark: `${site}/${MARK_FRAGMENT}off`,
  }));
  return ok({ token, links });
}

// @ts-check
// Every read the dashboard makes, with the session (an HttpOnly cookie no script can read, sent with every request to
// the app): the answer, or why there is none. A 401 means the session is gone, and every panel stops.
import { state } from './admin-state.js';

export const API = {
  session: '/api/admin/session',
  people: '/api/admin/visitors/people',
  activity: '/api/admin/activity',
  visitors: '/api/admin/activity/visitors',
  subjects: '/api/admin/subjects?sort=scans&order=desc&limit=50',
  mark: '/api/admin/mark',
  now: '/api/admin/now',
  retention: '/api/admin/retention',
  export: '/api/admin/export',
  sites: '/api/admin/sites',
  links: '/api/admin/links',
  keys: '/api/admin/keys',
};

/** A read's path with the site the view reads (`site=`), unless it names one already. */
export function ofSite(/** @type {string} */ path) {
  const site = state.view.site;
  if (!site || /[?&]site=/.test(path)) return path;
  return `${path}${path.includes('?') ? '&' : '?'}site=${encodeURIComponent(site)}`;
}

/** Thrown when the session is no longer accepted (it ended, or the key was rotated): the dashboard signs out. */
export class SignedOut extends Error {}

/**
 * A read of the app: its answer as the contract declares it (shared/contract), or why there is none.
 * @template T
 * @param {string} path
 * @returns {Promise<import('./admin-state.js').Read<T>>}
 */
export async function read(path) {
  try {
    const response = await fetch(ofSite(path), { cache: 'no-store', credentials: 'same-origin' });
    const body = await response.json().catch(() => null);
    if (response.status === 401) throw new SignedOut();
    if (!response.ok) return { ok: false, why: body?.error?.message ?? `the app answered ${response.status}` };
    return { ok: true, body: /** @type {T} */ (body) };
  } catch (error) {
    if (error instanceof SignedOut) throw error;
    return { ok: false, why: 'the app could not be reached' };
  }
}

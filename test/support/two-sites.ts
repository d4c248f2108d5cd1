import type { Clock } from '../../shared/core/ports/clock';
import type { Logger } from '../../shared/core/ports/logger';
import { startTestHost, type TestHost } from './host';
import { AGENTS, post } from './http';

/** Two sites on one host, as the keyed and shared readers' tests use them. */
export const TWO_SITES = 'blog.example=https://blog.example|docs.example=https://docs.example';

/** One page load of a site, reported by its server. */
export const siteHit = (site: string, address: string, path: string, agent: string = AGENTS.firefoxLinux) => ({
  address,
  user_agent: agent,
  path,
  site,
  page_load: true,
});

/** A local host with two sites whose `hits` are posted, kept and folded a minute later. */
export async function twoSitesFolded(
  hits: ReadonlyArray<ReturnType<typeof siteHit>>,
  overrides: { clock: Clock & { advance(ms: number): void }; logger: Logger },
): Promise<TestHost> {
  const t = await startTestHost({ env: { ALLOWED_ORIGINS: '', SITES: TWO_SITES, TRUSTED_PROXY_HOPS: '1' }, overrides });
  await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! });
  await t.host.drain();
  overrides.clock.advance(60_000);
  await t.fold();
  return t;
}

/** An operator's JSON call to the host. */
export const operatorCall =
  (t: () => TestHost) =>
  (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${t().host.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-operator-key': t().env.OPERATOR_KEY!, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }).then(async (response) => ({ status: response.status, json: await response.json() }));

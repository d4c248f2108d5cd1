import { plausibleEventSchema, type PlausibleEvent } from '../contract/plausible-event';
import { beaconBodySchema } from '../contract/hits';
import { badRequest, fail, fieldIssues, ok, type Result } from '../core/result';
import type { Site } from '../core/sites/sites';
import type { z } from 'zod';

type BeaconBody = z.input<typeof beaconBodySchema>;
type BeaconRead = z.infer<typeof beaconBodySchema>;

const hostOf = (origin: string) => {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
};

/** The site whose name or one of whose origins' host is the tracker's domain; the only one when a single site is declared. */
function siteOfDomain(domain: string, sites: readonly Site[]): Site | undefined {
  const bare = domain.toLowerCase().split(',')[0]!.trim();
  const named = sites.find((site) => site.name === bare || site.origins.some((origin) => hostOf(origin) === bare));
  return named ?? (sites.length === 1 ? sites[0] : undefined);
}

/** Plausible's props may be numbers or booleans; headcount's are lowercase-keyed strings, so other keys are left out. */
function propsOf(props: PlausibleEvent['p']): Record<string, string> | undefined {
  if (props === null || props === undefined) return undefined;
  const read = Object.entries(props)
    .filter(([key]) => /^[a-z][a-z0-9_]{0,31}$/.test(key))
    .map(([key, value]) => [key, String(value)] as const);
  return read.length === 0 ? undefined : Object.fromEntries(read);
}

/** A Plausible event as the snippet's beacon: a page load, an engagement or a custom event; revenue is refused, not dropped. */
export function beaconOfPlausibleEvent(event: PlausibleEvent, sites: readonly Site[]): Result<BeaconBody> {
  if (event.$ !== undefined || event.revenue !== undefined)
    return fail(badRequest([{ path: 'revenue', message: 'is not counted here: send the event without it' }]));
  const site = siteOfDomain(event.d, sites);
  if (site === undefined) return fail(badRequest([{ path: 'd', message: 'is not a site counted here' }]));
  const url = new URL(event.u);
  const hash = event.h === 1 || event.h === true ? url.hash : '';
  // The query goes the beacon's way: only its campaign tags are read, the rest is never kept.
  const path = `${url.pathname}${url.search}${hash}`;
  const referrer = event.r ?? null;
  if (event.n === 'pageview') return ok({ path, referrer, site: site.name });
  if (event.n === 'engagement') return ok({ path, site: site.name, engagement: { ms: event.e ?? 0, scroll: event.sd ?? 0 } });
  const props = propsOf(event.p);
  return ok({ path, referrer, site: site.name, event: event.n, ...(props === undefined ? {} : { props }) });
}

/** Plausible's field for each of the beacon's, so a refusal names what the tracker sent. */
const FIELD: Record<string, string> = { path: 'u', referrer: 'r', event: 'n', props: 'p', site: 'd' };

export function readPlausibleEvent(value: unknown, sites: readonly Site[]): Result<BeaconRead> {
  const event = plausibleEventSchema.safeParse(value);
  if (!event.success) return fail(badRequest(fieldIssues(event.error.issues)));
  const body = beaconOfPlausibleEvent(event.data, sites);
  if (!body.ok) return body;
  const read = beaconBodySchema.safeParse(body.value);
  if (read.success) return ok(read.data);
  return fail(
    badRequest(
      fieldIssues(read.error.issues).map((issue) => {
        const [head = '', ...rest] = issue.path.split('.');
        return { ...issue, path: [FIELD[head] ?? head, ...rest].join('.') };
      }),
    ),
  );
}

import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import fc from 'fast-check';
import { expect } from 'vitest';

/** What the privacy tests feed the pipeline (addresses in every spelling, real and random agents) and how they search. */

export const DOTTED_QUAD = /\b\d{1,3}(\.\d{1,3}){3}\b/;
export const ORIGIN = 'https://site.example';
export const PATHS = ['/', '/about', '/blog/post-1', '/api/data', '/pricing?plan=pro&ref=newsletter', '/docs/guide#install', '/users/jane'];
export const REFERRERS = [
  undefined,
  'https://www.linkedin.com/feed/?trk=x',
  'https://github.com/someone/repo',
  'https://news.ycombinator.com/item?id=1',
  // The page before, as the snippet sends it on a single-page app's route change.
  `${ORIGIN}/users/jane?session=abc123`,
];

/** A page view's engagement and the viewport's width, as the snippet sends them: neither is ever kept as sent. */
export const engagement = fc.record({
  ms: fc.integer({ min: 0, max: 86_400_000 }),
  scroll: fc.integer({ min: 0, max: 100 }),
  since_ms: fc.integer({ min: 0, max: 600_000 }),
});
export const width = fc.integer({ min: 0, max: 100_000 });

// ---- addresses ----------------------------------------------------------------------------------------------------

const ipV4Mapped = fc.ipV4().chain((v4) => fc.constantFrom(`::ffff:${v4}`, `::FFFF:${v4}`, `0:0:0:0:0:ffff:${v4}`));
export const address = fc.oneof(fc.ipV4(), fc.ipV6(), ipV4Mapped);

/** Every spelling of an address a leak could take: as given, canonical, compressed, expanded, the IPv4 it carries. */
export function spellings(given: string): string[] {
  const out = new Set<string>([given]);
  const dotted = given.match(/\d{1,3}(\.\d{1,3}){3}/);
  if (dotted) out.add(dotted[0]);
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(given);
  } catch {
    return [...out];
  }
  const add = (value: ipaddr.IPv4 | ipaddr.IPv6) => {
    out.add(value.toString());
    out.add(value.toNormalizedString());
    if (value.kind() === 'ipv6') {
      const v6 = value as ipaddr.IPv6;
      const expanded = v6.parts.map((part) => part.toString(16).padStart(4, '0')).join(':');
      out.add(expanded);
      out.add(v6.toRFC5952String());
      out.add(expanded.replace(/:/g, ''));
    } else {
      const v4 = value as ipaddr.IPv4;
      // As one number only when long enough that finding it could not be a count or a time's digits.
      const whole = String(v4.octets.reduce((n, octet) => n * 256 + octet, 0));
      if (whole.length >= 8) out.add(whole);
      out.add(v4.toIPv4MappedAddress().toString());
      out.add(v4.toIPv4MappedAddress().toNormalizedString());
    }
  };
  add(parsed);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) add((parsed as ipaddr.IPv6).toIPv4Address());
  return [...out].filter((spelling) => spelling.length >= 3);
}

// ---- agents -------------------------------------------------------------------------------------------------------

const version = fc.record({
  major: fc.integer({ min: 1, max: 199 }),
  minor: fc.integer({ min: 0, max: 99 }),
  build: fc.integer({ min: 0, max: 9999 }),
  patch: fc.integer({ min: 0, max: 399 }),
});
type Version = { major: number; minor: number; build: number; patch: number };

/** Real agent strings with their version numbers left open. */
const TEMPLATES: ((v: Version) => string)[] = [
  (v) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v.major}.0.${v.build}.${v.patch} Safari/537.36`,
  (v) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v.major}.0.0.0 Safari/537.36 Edg/${v.major}.0.${v.build}.${v.patch}`,
  (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${v.major}.0) Gecko/20100101 Firefox/${v.major}.${v.minor}`,
  (v) => `Mozilla/5.0 (X11; Linux x86_64; rv:${v.major}.0) Gecko/20100101 Firefox/${v.major}.0`,
  (v) =>
    `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_${v.minor}) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v.major}.${v.minor} Safari/605.1.15`,
  (v) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v.major}_${v.minor} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v.major}.${v.minor} Mobile/15E148 Safari/604.1`,
  (v) =>
    `Mozilla/5.0 (Linux; Android ${v.major % 16}; Pixel ${v.minor % 10}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v.major}.0.${v.build}.${v.patch} Mobile Safari/537.36`,
  (v) =>
    `Mozilla/5.0 (Linux; Android ${v.major % 16}; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/${v.major}.${v.minor} Chrome/${v.major}.0.0.0 Mobile Safari/537.36`,
  (v) => `Mozilla/5.0 (compatible; Googlebot/${v.major}.${v.minor}; +http://www.google.com/bot.html)`,
  (v) => `Mozilla/5.0 (compatible; bingbot/${v.major}.${v.minor}; +http://www.bing.com/bingbot.htm)`,
  (v) => `facebookexternalhit/${v.major}.${v.minor} (+http://www.facebook.com/externalhit_uatext.php)`,
  (v) => `curl/${v.major}.${v.minor}.${v.patch}`,
  (v) => `python-requests/${v.major}.${v.minor}.${v.patch}`,
  (v) => `Go-http-client/${v.major}.${v.minor}`,
];

const realAgent = fc.tuple(fc.integer({ min: 0, max: TEMPLATES.length - 1 }), version).map(([which, v]) => TEMPLATES[which]!(v));
/** Printable ASCII only, as a header carries it; long enough that finding it in a message could not be chance. */
const randomAgent = fc.string({ minLength: 12, maxLength: 120 }).filter((agent) => agent.trim().length >= 12);
export const agent = fc.oneof({ weight: 3, arbitrary: realAgent }, { weight: 1, arbitrary: randomAgent });

/** The agent whole, and the parts of it that would name it: product tokens with their versions, the comments. */
export function agentPieces(given: string): string[] {
  const agentText = given.trim();
  const pieces = new Set<string>([agentText]);
  for (const token of agentText.match(/[A-Za-z][A-Za-z0-9_-]*\/\d[0-9A-Za-z._]*/g) ?? []) pieces.add(token);
  for (const comment of agentText.match(/\([^()]{6,}\)/g) ?? []) pieces.add(comment);
  return [...pieces].filter((piece) => piece.length >= 6);
}

// ---- headers ------------------------------------------------------------------------------------------------------

const marker = fc.stringMatching(/^[a-z]{12}$/);

/**
 * The headers a browser sends that the signals read, each value carrying a marker of its own (twelve random letters),
 * so a value that leaked anywhere would be found by its marker.
 */
export const signalHeaders = fc.record({
  'accept-language': marker.map((m) => `${m},en;q=0.9`),
  'sec-fetch-site': marker.map((m) => `cross-${m}`),
  'sec-fetch-mode': marker.map((m) => `no-${m}`),
  'sec-fetch-dest': marker.map((m) => `empty-${m}`),
  'sec-ch-ua': marker.map((m) => `"Chromium";v="131", "${m}";v="8"`),
});

/** The markers in a set of signal header values, for expectNoHeaderValue. */
export const markersOf = (headers: Record<string, string>): string[] => Object.values(headers).map((value) => /[a-z]{12}/.exec(value)![0]);

/** What a text must not hold: any header value the request carried, found by its marker. */
export function expectNoHeaderValue(text: string, markers: readonly string[], where: string) {
  expect(
    markers.filter((marker) => text.includes(marker)),
    `${where} holds a header value`,
  ).toEqual([]);
}

// ---- checking -----------------------------------------------------------------------------------------------------

/** What a text must not hold: each spelling of each address, each piece of each agent, any dotted four-octet address. */
export function expectNothingNaming(text: string, addresses: readonly string[], agents: readonly string[], where: string) {
  // One assertion that names everything found: one an address's spelling or an agent's piece cost more than the search.
  const lower = text.toLowerCase();
  const quad = DOTTED_QUAD.exec(text)?.[0];
  const found = [
    ...addresses.flatMap((given) =>
      spellings(given)
        .filter((spelling) =>
          /^\d+$/.test(spelling) ? new RegExp(`(?<!\\d)${spelling}(?!\\d)`).test(text) : lower.includes(spelling.toLowerCase()),
        )
        .map((spelling) => `the address ${given} as ${spelling}`),
    ),
    ...agents.flatMap((given) =>
      agentPieces(given)
        .filter((piece) => lower.includes(piece.toLowerCase()))
        .map((piece) => `the agent ${given} as ${piece}`),
    ),
    ...(quad === undefined ? [] : [`the dotted four-octet address ${quad}`]),
  ];
  expect(found, `${where} holds what names a person`).toEqual([]);
}

// ---- query strings ------------------------------------------------------------------------------------------------

/** The four campaign tags, as a link may spell them (the names are read without regard to case). */
const TAG_NAMES = ['utm_source', 'utm_medium', 'utm_campaign', 'ref', 'UTM_Source', 'Ref', 'UTM_CAMPAIGN'];

/** A query parameter that is not a tag: a name and a value long and random enough that finding either could not be chance. */
const otherParameter = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9]{7,15}$/),
  value: fc.stringMatching(/^[A-Za-z0-9]{10,24}$/),
  tag: fc.constant(false),
});
const tagParameter = fc.record({
  name: fc.constantFrom(...TAG_NAMES),
  value: fc.string({ maxLength: 60, unit: 'grapheme' }),
  tag: fc.constant(true),
});

/** A random query string: tags and other parameters in any order, each name and value percent-encoded. */
export const queryParameters = fc.array(fc.oneof({ weight: 2, arbitrary: otherParameter }, { weight: 1, arbitrary: tagParameter }), {
  minLength: 1,
  maxLength: 8,
});

export type QueryParameter = { name: string; value: string; tag: boolean };

/** The parameters as a query string after `?`. */
export const queryText = (parameters: readonly QueryParameter[]) =>
  parameters.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`).join('&');

/** Asserts that no name or value of a parameter other than the four tags, in any spelling, is in the text. */
export function expectNoQuery(text: string, parameters: readonly QueryParameter[], where: string) {
  // Lowered once, and one assertion that names every parameter found: lowering the whole text for each parameter
  // took seconds over the import's log.
  const lower = text.toLowerCase();
  const others = parameters.filter((p) => !p.tag);
  const found = [
    ...others.filter((p) => text.includes(p.name)).map((p) => `the query name ${p.name}`),
    ...others.filter((p) => lower.includes(p.value.toLowerCase())).map((p) => `the query value ${p.value}`),
  ];
  expect(found, `${where} holds a query's name or value`).toEqual([]);
}

// ---- the address search -------------------------------------------------------------------------------------------

/** What an address search found: the address, and the day of the token or `person` (a person hash, all time). */
export interface Recovered {
  address: string;
  when: string;
  how: string;
}

const hmac32 = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest().subarray(0, 16).toString('hex');

/** Each IPv4 /24 a dump names (`203.0.113.x`); an IPv6 /48 leaves 2^80 candidates, which no search runs through. */
export const networksIn = (dump: string): string[] => [...new Set(dump.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.x\b/g) ?? [])].sort();

/**
 * What the holder of HASH_KEY and a dump of the store (documents, queue and poison messages) gets back: every address
 * of each /24 × each agent family, hashed every way a value beside it could have been made — today's daily token
 * (HMAC(HASH_KEY, day|address)) for every day the dump names, the person hash, and a day's token under each day's
 * secret the dump holds (`secrets`: secret → day) — and looked for among the dump's 32-hex values.
 */
export function addressSearch(
  dump: string,
  search: { hashKey: string; families: readonly string[]; networks: readonly string[]; secrets: ReadonlyMap<string, string> },
): Recovered[] {
  const { hashKey, families, networks, secrets } = search;
  const values = new Set(dump.match(/\b[0-9a-f]{32}\b/g) ?? []);
  const days = [...new Set(dump.match(/\b20\d\d-\d\d-\d\d\b/g) ?? [])];
  const found = new Map<string, Recovered>();
  const note = (value: string, address: string, when: string, how: string) => {
    if (values.has(value)) found.set(`${address}|${when}|${how}`, { address, when, how });
  };
  for (const network of networks)
    for (let host = 0; host < 256; host += 1) {
      const address = network.replace(/x$/, String(host));
      for (const day of days) note(hmac32(hashKey, `${day}|${address}`), address, day, 'a token of HASH_KEY');
      for (const family of families) {
        note(hmac32(hashKey, `person|${address}|${family}`), address, 'person', 'a person hash');
        for (const [secret, day] of secrets) note(hmac32(secret, `${address}|${family}`), address, day, "a token of the day's secret");
      }
    }
  return [...found.values()];
}

/** What a text must not hold: a day's secret (or the import secret), whole or as its first half. */
export function expectNoSecret(text: string, secrets: readonly string[], where: string) {
  expect(secrets.length, 'the run made no secret to look for').toBeGreaterThan(0);
  const found = secrets.filter((secret) => text.includes(secret.slice(0, 32)) || text.includes(secret.slice(32)));
  expect(found.length, `${where} holds a day's secret`).toBe(0);
}

import { performance } from 'node:perf_hooks';
import { loadCountryTable } from '../adapters/files/countries';
import { classify, type IdentityRules } from '../shared/ingest/classify';
import { noCountries } from '../shared/core/identity/country';
import { DAY_SECRET, identityRules, seenRequest } from './settings';
import { median } from './report';

const agent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function addresses(count: number): string[] {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: count }, (_, i) =>
    i % 4 === 3
      ? `2a0${next() % 10}:${(next() % 65536).toString(16)}:${(next() % 65536).toString(16)}::${(next() % 65536).toString(16)}`
      : `${1 + (next() % 222)}.${next() % 256}.${next() % 256}.${next() % 256}`,
  );
}

const perItem = (started: number, count: number) => ((performance.now() - started) * 1000) / count;

/** The country table's build time and size, a lookup's time, and what the lookup adds to classifying one hit. */
export async function run(): Promise<void> {
  let started = performance.now();
  const table = loadCountryTable();
  const built = performance.now() - started;
  // IPv4: two Uint32 and a Uint16 a range; IPv6: eight Uint32 and a Uint16.
  const bytes = table.ranges.v4 * 10 + table.ranges.v6 * 34;
  console.log(
    `country table: ${table.ranges.v4} IPv4 and ${table.ranges.v6} IPv6 ranges built in ${built.toFixed(0)} ms, once per process; ${(bytes / 1024 / 1024).toFixed(1)} MB of typed arrays`,
  );
  const list = addresses(200_000);
  for (const address of list.slice(0, 20_000)) table.countryOf(address);
  for (const [name, some] of Object.entries({ IPv4: list.filter((a) => !a.includes(':')), IPv6: list.filter((a) => a.includes(':')) })) {
    started = performance.now();
    let placed = 0;
    for (const address of some) if (table.countryOf(address) !== 'XX') placed += 1;
    console.log(`lookup, ${name}: ${perItem(started, some.length).toFixed(2)} µs per address (${some.length} addresses, ${placed} placed)`);
  }
  const rules = (countries: IdentityRules['countries']): IdentityRules => identityRules({ ignoredPaths: ['/api/admin'], countries });
  const requests = list
    .slice(0, 50_000)
    .map((address, i) => seenRequest('2026-11-30T12:00:00Z', address, agent, `/articles/${i % 40}?utm_source=x`));
  // Alternated over five rounds, the median taken: a shared machine's speed wanders.
  const times: Record<string, number[]> = { without: [], with: [] };
  for (let round = 0; round < 5; round += 1) {
    for (const [name, countries] of Object.entries({ without: noCountries, with: table })) {
      const r = rules(countries);
      started = performance.now();
      for (const request of requests) classify(request, r, DAY_SECRET);
      times[name]!.push(perItem(started, requests.length));
    }
  }
  console.log(
    `classify a hit (hashes, agent family, network, device, campaign): ${median(times.without!).toFixed(2)} µs without the country lookup, ${median(times.with!).toFixed(2)} µs with it (median of 5 rounds of ${requests.length})`,
  );
}

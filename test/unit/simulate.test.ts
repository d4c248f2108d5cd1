import { describe, expect, it } from 'vitest';
import { hostingNetworks } from '../../adapters/files/networks';
import { UNKNOWN_COUNTRY } from '../../shared/core/identity/country';
import { isLoopback } from '../../shared/core/identity/network';
import { NETWORKS, postedWords, simulate } from '../../scripts/simulate';
import { countries } from '../support/countries';

// `npm run simulate` fills the dashboard with people from real countries: their addresses are in public ranges the
// app's own country table places, on no hosting network, and no address it sends is in a documentation range.

const hits = simulate({ days: 7, people: 40, seed: 42, selfTag: 'headcount-self', now: new Date('2026-10-23T20:00:00Z'), maxAgeDays: 7 });
const networks = hostingNetworks();

describe('npm run simulate', () => {
  it('draws people from networks in ten real countries, none a hosting network, IPv4 and IPv6', () => {
    const first = NETWORKS.map((network) => (network.includes(':') ? `${network}::1` : `${network}.1`));
    expect([...new Set(first.map((address) => countries.countryOf(address)))].sort()).toEqual([
      'AU',
      'BR',
      'CA',
      'DE',
      'ES',
      'FR',
      'GB',
      'JP',
      'NL',
      'US',
    ]);
    expect(first.filter((address) => networks.hostingAsn(address) !== null)).toEqual([]);
    // What the default run sends (the same seed is the same traffic): people in several countries, none unplaced.
    const people = hits.filter((hit) => hit.page_load === true);
    const placed = new Set(people.map((hit) => countries.countryOf(hit.address)));
    expect(placed.size).toBeGreaterThanOrEqual(8);
    expect(placed.has(UNKNOWN_COUNTRY)).toBe(false);
    expect(people.filter((hit) => networks.hostingAsn(hit.address) !== null)).toEqual([]);
    expect(people.some((hit) => hit.address.includes(':'))).toBe(true);
    expect(people.some((hit) => !hit.address.includes(':'))).toBe(true);
  });

  it('places every address it sends but loopback: none is a documentation or private one, and the scanners come from data centres', () => {
    const unplaced = hits.filter((hit) => !isLoopback(hit.address) && countries.countryOf(hit.address) === UNKNOWN_COUNTRY);
    expect(unplaced).toEqual([]);
    const scanners = hits.filter((hit) => /curl|python-requests|zgrab/.test(hit.user_agent));
    expect(scanners.length).toBeGreaterThan(0);
    expect(scanners.every((hit) => networks.hostingAsn(hit.address) !== null)).toBe(true);
  });

  it('says how many hits were counted, and names the rest only when there is a rest', () => {
    expect(postedWords(464, 7, 464)).toBe('posted 464 hits over 7 days (464 counted)');
    expect(postedWords(470, 7, 464)).toBe('posted 470 hits over 7 days (464 counted, 6 assets or ignored)');
  });
});

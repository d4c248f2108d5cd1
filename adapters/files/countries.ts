import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countryTable, type CountryLookup, type CountryTable } from '../../shared/core/identity/country';

/**
 * The data package: `@ip-location-db/geo-whois-asn-country` (sapics/ip-location-db), whose data is the five RIRs'
 * WHOIS and ASN country data, licensed CC BY 4.0 by the Number Resource Organization (https://www.nro.net/);
 * the package itself is published CC0-1.0. Only two of its files are read: `*-ipv4-num.csv` and `*-ipv6.csv`.
 */
export const COUNTRY_PACKAGE = '@ip-location-db/geo-whois-asn-country';

const folder = () => join(require.resolve(`${COUNTRY_PACKAGE}/package.json`), '..');

export function loadCountryTable(): CountryTable {
  const read = (name: string) => readFileSync(join(folder(), name));
  return countryTable(read('geo-whois-asn-country-ipv4-num.csv'), read('geo-whois-asn-country-ipv6.csv'));
}

/** Builds the table on its first address, so a process that takes no hit never reads it. */
export function packagedCountries(): CountryLookup {
  let table: CountryTable | undefined;
  return { countryOf: (address) => (table ??= loadCountryTable()).countryOf(address) };
}

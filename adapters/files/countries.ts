import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countryTable, type CountryLookup, type CountryTable } from '../../shared/identity/country';

/**
 * The data package: `@ip-location-db/geo-whois-asn-country` (sapics/ip-location-db), whose data is the five RIRs'
 * WHOIS and ASN country data, licensed CC BY 4.0 by the Number Resource Organization (https://www.nro.net/);
 * the package itself is published CC0-1.0. Only two of its files are read: `*-ipv4-num.csv` and `*-ipv6.csv`.
 */
export const COUNTRY_PACKAGE = '@ip-location-db/geo-whois-asn-country';

const folder = () => join(require.resolve(`${COUNTRY_PACKAGE}/package.json`), '..');

let table: CountryTable | undefined;

/** The table, built from the package's CSVs the first time it is asked for and kept for the process's life. */
export function loadCountryTable(): CountryTable {
  if (table === undefined) {
    const read = (name: string) => readFileSync(join(folder(), name));
    table = countryTable(read('geo-whois-asn-country-ipv4-num.csv'), read('geo-whois-asn-country-ipv6.csv'));
  }
  return table;
}

/** A lookup that builds the table on its first address (so a process that takes no hit never reads it). */
export const packagedCountries: CountryLookup = { countryOf: (address) => loadCountryTable().countryOf(address) };

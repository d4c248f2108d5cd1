import { campaignOf } from './campaign';
import { noCountries, type CountryLookup } from './country';
import { deviceOf, type Audience } from './device';

/**
 * What a hit carries of its audience: the address's country code, the agent family's browser, system and device type,
 * and a page load's campaign tags. The address and the agent are read here and go no further; of the query string
 * only the four campaign tags are read, cleaned (shared/identity/campaign.ts).
 */
export function audienceOf(
  request: { address: string | null; path: string; pageLoad: boolean },
  family: string,
  countries: CountryLookup = noCountries,
): Audience {
  return { country: countries.countryOf(request.address), ...deviceOf(family), campaign: campaignOf(request.path, request.pageLoad) };
}

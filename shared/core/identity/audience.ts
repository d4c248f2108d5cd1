import { campaignOf } from './campaign';
import { noCountries, type CountryLookup } from './country';
import { deviceOf, type Audience, type Device } from './device';

/**
 * What a hit carries of its audience: the address's country code, the agent family's browser, system and device type,
 * and a page load's campaign tags. The address and the agent are read here and go no further; of the query string
 * only the four campaign tags are read, cleaned (shared/core/identity/campaign.ts). `device` is the family's, when already
 * read with it (shared/core/identity/agent.ts readAgent).
 */
export function audienceOf(
  request: { address: string | null; path: string; pageLoad: boolean },
  family: string,
  countries: CountryLookup = noCountries,
  device: Device = deviceOf(family),
): Audience {
  return { country: countries.countryOf(request.address), ...device, campaign: campaignOf(request.path, request.pageLoad) };
}

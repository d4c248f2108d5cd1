import { campaignOf } from './campaign';
import { noCountries, type CountryLookup } from './country';
import { deviceOf, type Audience, type Device } from './device';

/** The address and agent are read here and go no further; of the query string only the campaign tags are read. */
export function audienceOf(
  request: { address: string | null; path: string; pageLoad: boolean },
  family: string,
  countries: CountryLookup = noCountries,
  device: Device = deviceOf(family),
): Audience {
  return { country: countries.countryOf(request.address), ...device, campaign: campaignOf(request.path, request.pageLoad) };
}

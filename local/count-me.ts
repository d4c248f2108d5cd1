import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { inNetworks } from '../shared/core/identity/network';

/** Counts this machine's browser as a visitor. */
export const COUNT_ME = '--count-me';

/** Null without the flag. */
export type CountMe = { address: string } | { refused: string } | null;

/** The first IPv4 address that is not internal, else the first such IPv6. */
function ownAddress(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string | undefined {
  const own = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((info) => !info.internal && !info.address.toLowerCase().startsWith('fe80:'));
  return (own.find((info) => info.family === 'IPv4') ?? own[0])?.address;
}

/**
 * A request from loopback reaches the app as from this machine's network address, so its browser counts as a visitor.
 * Local only: refused in Azure, and when that address is one of SELF_NETWORKS.
 */
export function countMe(
  argv: readonly string[],
  values: Readonly<Record<string, string | undefined>>,
  selfNetworks: readonly string[],
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): CountMe {
  if (!argv.includes(COUNT_ME)) return null;
  if (values.WEBSITE_INSTANCE_ID)
    return {
      refused: `${COUNT_ME} is refused in Azure (WEBSITE_INSTANCE_ID is set): it is for a local stack, to count the browser of the machine it runs on`,
    };
  const address = ownAddress(interfaces);
  if (address === undefined)
    return { refused: `${COUNT_ME}: this machine has no network address to count its browser as (only loopback); connect it to a network` };
  if (inNetworks(address, selfNetworks))
    return {
      refused: `${COUNT_ME}: this machine's address ${address} is in SELF_NETWORKS, so its requests would stay the site's own reads; take its network out of SELF_NETWORKS`,
    };
  return { address };
}

import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { inNetworks } from '../../shared/core/identity/network';

/** The flag of `npm start` that counts this machine's browser as a visitor. */
export const COUNT_ME = '--count-me';

/** What `--count-me` asks: the address loopback requests reach the app as, or why it is refused; null without the flag. */
export type CountMe = { address: string } | { refused: string } | null;

/** This machine's own address on its network: the first IPv4 one that is not internal, else the first such IPv6 one. */
function ownAddress(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string | undefined {
  const own = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((info) => !info.internal && !info.address.toLowerCase().startsWith('fe80:'));
  return (own.find((info) => info.family === 'IPv4') ?? own[0])?.address;
}

/**
 * `npm start -- --count-me`: a request from loopback reaches the app as from this machine's own network address, as a
 * browser on another machine of that network would, so this machine's browser is counted as a visitor rather than as
 * the site reading itself. Never a default, and local only: refused where WEBSITE_INSTANCE_ID is set (Azure), and when
 * that address is one of SELF_NETWORKS (its requests would stay the site's own).
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

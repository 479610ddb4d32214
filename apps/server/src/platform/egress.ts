/**
 * The egress policy connectors go through (docs/connectors.md, "Egress policy"): a configured host is
 * resolved, every address it resolves to is classified, and the connector connects to the checked
 * address. Loopback, link-local, unspecified and other special addresses, and the service's own
 * database and Redis, are refused; private networks only when SVC_CONNECTOR_ALLOW_PRIVATE_NETWORKS is
 * on; the administrator's SVC_CONNECTOR_ALLOWED_HOSTS overrides every rule.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { bareHost, ConnectorError, egressRefused, type EgressPolicy } from '@svc/engine';
import ipaddr from 'ipaddr.js';
import type { Config } from './config/index.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Resolve = (host: string) => Promise<string[]>;

export type AddressClass = 'public' | 'private' | 'loopback' | 'link-local' | 'unspecified' | 'special';

/**
 * What an address is. IPv4 addresses written as IPv6 (::ffff:127.0.0.1, ::127.0.0.1) are classified
 * as the IPv4 address they stand for; IPv6 forms that embed an IPv4 address for a translator
 * (NAT64, 6to4, Teredo) are `special`, since where they end up is not known here.
 */
export function classifyAddress(text: string): AddressClass {
  const address = ipaddr.process(text);
  switch (address.range()) {
    case 'unicast':
      return 'public';
    case 'private':
    case 'carrierGradeNat':
    case 'uniqueLocal':
      return 'private';
    case 'loopback':
      return 'loopback';
    case 'linkLocal':
      return 'link-local';
    case 'unspecified':
      return 'unspecified';
    default:
      return 'special';
  }
}

export interface AllowList {
  ranges: Array<[Address, number]>;
  /** Lower-case host names; "*.example.com" allows every name under example.com. */
  names: string[];
}

/** Addresses are compared as classified: an IPv4-mapped range (::ffff:10.0.0.0/104) as its IPv4 range. */
function asIPv4Range(address: Address, bits: number): [Address, number] {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    return [(address as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)];
  return [address, bits];
}

/** SVC_CONNECTOR_ALLOWED_HOSTS: comma-separated CIDRs, single addresses and host names. Throws naming a bad entry. */
export function parseAllowList(text: string): AllowList {
  const list: AllowList = { ranges: [], names: [] };
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry.includes('/')) {
      try {
        list.ranges.push(asIPv4Range(...ipaddr.parseCIDR(entry)));
      } catch {
        throw new Error(`SVC_CONNECTOR_ALLOWED_HOSTS: "${entry}" is not a valid CIDR`);
      }
    } else if (ipaddr.isValid(bareHost(entry))) {
      const address = ipaddr.process(bareHost(entry));
      list.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(entry)) {
      list.names.push(entry.replace(/\.$/, ''));
    } else {
      throw new Error(`SVC_CONNECTOR_ALLOWED_HOSTS: "${entry}" is neither a CIDR, an address nor a host name`);
    }
  }
  return list;
}

function nameAllowed(list: AllowList, host: string): boolean {
  return list.names.some((name) => (name.startsWith('*.') ? host.endsWith(name.slice(1)) : host === name));
}

function addressAllowed(list: AllowList, address: Address): boolean {
  return list.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

export interface EgressRules {
  allowPrivateNetworks: boolean;
  allowedHosts: string;
  /** The service's own servers (framework database, Redis) as URLs; refused unless allow-listed. */
  serviceUrls: Array<{ url: string | undefined; defaultPort: number; what: string }>;
}

const REFUSED: Record<Exclude<AddressClass, 'public' | 'private'>, string> = {
  loopback: 'a loopback address',
  'link-local': 'a link-local address',
  unspecified: 'an unspecified address',
  special: 'a special-purpose address',
};

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

export function createEgressPolicy(rules: EgressRules, resolve: Resolve = resolveAll): EgressPolicy {
  const allowList = parseAllowList(rules.allowedHosts);
  // The service's own endpoints, resolved once (a name that does not resolve cannot be reached either).
  let serviceEndpoints: Promise<Array<{ address: Address; port: number; what: string }>> | undefined;
  const ownEndpoints = () =>
    (serviceEndpoints ??= Promise.all(
      rules.serviceUrls.map(async ({ url, defaultPort, what }) => {
        if (!url) return [];
        const parsed = new URL(url);
        const host = bareHost(parsed.hostname);
        if (!host) return [];
        const port = parsed.port ? Number(parsed.port) : defaultPort;
        const addresses = isIP(host) ? [host] : await resolve(host).catch(() => []);
        return addresses.map((address) => ({ address: ipaddr.process(address), port, what }));
      }),
    ).then((lists) => lists.flat()));

  return {
    async resolve(host, port) {
      const name = bareHost(host).toLowerCase().replace(/\.$/, '');
      let addresses: string[];
      if (isIP(name)) {
        addresses = [name];
      } else {
        try {
          addresses = await resolve(name);
        } catch {
          throw new ConnectorError('unreachable', `host ${host} not found`, true);
        }
        if (addresses.length === 0) throw new ConnectorError('unreachable', `host ${host} not found`, true);
      }
      const pinned = addresses[0]!;
      const result = { address: pinned, family: (isIP(pinned) === 6 ? 6 : 4) as 4 | 6 };
      if (nameAllowed(allowList, name)) return result;
      const own = await ownEndpoints();
      // Every address must pass: a name that also resolves to a refused address is refused.
      for (const text of addresses) {
        if (!ipaddr.isValid(text)) throw egressRefused(host, port, REFUSED.special);
        const address = ipaddr.process(text);
        if (addressAllowed(allowList, address)) continue;
        const service = own.find(
          (endpoint) =>
            endpoint.port === port &&
            endpoint.address.kind() === address.kind() &&
            endpoint.address.toString() === address.toString(),
        );
        if (service) throw egressRefused(host, port, `the service's own ${service.what}`);
        const kind = classifyAddress(text);
        if (kind === 'public') continue;
        if (kind === 'private') {
          if (rules.allowPrivateNetworks) continue;
          throw egressRefused(
            host,
            port,
            'a private network address; an administrator may allow private networks or list the host',
          );
        }
        throw egressRefused(host, port, `${REFUSED[kind]}; an administrator may list the host in the allowed hosts`);
      }
      return result;
    },
  };
}

/** The policy of this instance, from its configuration. Throws naming SVC_CONNECTOR_ALLOWED_HOSTS when it cannot be read. */
export function egressPolicyFrom(config: Config): EgressPolicy {
  return createEgressPolicy({
    allowPrivateNetworks: config.connectors.allowPrivateNetworks,
    allowedHosts: config.connectors.allowedHosts,
    serviceUrls: [
      { url: config.db.url, defaultPort: 5432, what: 'database' },
      { url: config.redis.url, defaultPort: 6379, what: 'Redis' },
    ],
  });
}

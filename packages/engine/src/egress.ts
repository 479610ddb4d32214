/**
 * What every connector that opens a network connection goes through: the host's egress policy
 * (types.ts), or a refusal when the host gave none.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ConnectorError, type ConnectorContext, type EgressPolicy } from './types.js';

/** The error of a refused destination; it names the destination and why, nothing a remote sent. */
export function egressRefused(host: string, port: number, reason: string): ConnectorError {
  return new ConnectorError('invalid_config', `${host}:${port} is not allowed by the egress policy (${reason})`, false);
}

/** A bracketed IPv6 literal of a URL ("[::1]") without its brackets. */
export const bareHost = (host: string): string =>
  host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;

const denyAll: EgressPolicy = {
  async resolve(host, port) {
    throw egressRefused(host, port, 'no egress policy was given to the connector');
  },
};

/** The context's policy; none means nothing may be reached. */
export const egressOf = (context: Pick<ConnectorContext, 'egress'> | undefined): EgressPolicy =>
  context?.egress ?? denyAll;

/** Resolves and pins, allows everything: for tests and hosts that deliberately set no limits. */
export const unrestrictedEgress: EgressPolicy = {
  async resolve(host, port) {
    const bare = bareHost(host);
    const literal = isIP(bare);
    if (literal) return { address: bare, family: literal as 4 | 6 };
    try {
      const { address, family } = await lookup(bare);
      return { address, family: family as 4 | 6 };
    } catch {
      throw new ConnectorError('unreachable', `host ${host} not found (port ${port})`, true);
    }
  },
};

/**
 * What every connector that opens a network connection goes through: the host's egress policy
 * (types.ts), or a refusal when the host gave none.
 */
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, fetch } from 'undici';
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

/**
 * An agent whose every connection goes to the address the egress policy returned for the URL's host:
 * the policy is asked again for each new connection (no DNS answer outlives its check), while the
 * host name stays what TLS sends (SNI) and verifies the certificate against.
 */
export function egressAgent(policy: EgressPolicy): Agent {
  const direct = buildConnector({});
  return new Agent({
    connect: (options, callback) => {
      const host = bareHost(options.hostname);
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      policy.resolve(host, port).then(
        ({ address }) => direct({ ...options, hostname: address, host: options.host ?? options.hostname }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });
}

/**
 * A DNS lookup for node's http/https agents (clients such as the AWS SDK's) that answers only the
 * address the egress policy allows for the host on `port`; a refused host fails the connection.
 */
export function egressLookup(policy: EgressPolicy, port: number): LookupFunction {
  return (hostname, options, callback) => {
    policy.resolve(hostname, port).then(
      ({ address, family }) => {
        if ((options as { all?: boolean }).all)
          (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
            { address, family },
          ]);
        else callback(null, address, family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

/**
 * A fetch (the WHATWG signature, for HTTP clients that take one) whose connections go through the
 * egress policy; `close()` ends its connections.
 */
export function egressFetch(policy: EgressPolicy): {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  close(): Promise<void>;
} {
  const agent = egressAgent(policy);
  return {
    fetch: (input, init) =>
      fetch(input instanceof Request ? input.url : input, {
        ...(init as object),
        dispatcher: agent,
      }) as unknown as Promise<Response>,
    close: () => agent.close(),
  };
}

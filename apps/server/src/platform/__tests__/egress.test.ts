import { describe, expect, it } from 'vitest';
import { classifyAddress, createEgressPolicy, parseAllowList } from '../egress.js';

/** A fixed DNS: the names a test uses and what they resolve to. */
const dns = (table: Record<string, string[]>) => async (host: string) => {
  const found = table[host];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found;
};

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'allowed',
    (error: Error) => error.message,
  );

describe('address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['224.0.0.1', 'special'],
    ['255.255.255.255', 'special'],
    ['64:ff9b::7f00:1', 'special'],
    ['2002:7f00:1::', 'special'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('allow-list', () => {
  it('reads CIDRs, single addresses and names, and names a bad entry', () => {
    const list = parseAllowList(' 10.1.0.0/16, ::1 ,DB.Internal., *.corp.example,127.0.0.1');
    expect(list.names).toEqual(['db.internal', '*.corp.example']);
    expect(list.ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual([
      '10.1.0.0/16',
      '::1/128',
      '127.0.0.1/32',
    ]);
    expect(parseAllowList('').ranges).toEqual([]);
    expect(() => parseAllowList('10.0.0.0/99')).toThrow(/SVC_CONNECTOR_ALLOWED_HOSTS: "10.0.0.0\/99"/);
    expect(() => parseAllowList('http://x')).toThrow(/SVC_CONNECTOR_ALLOWED_HOSTS/);
  });
});

describe('egress policy', () => {
  const names = dns({
    'api.example.com': ['93.184.216.34'],
    'sneaky.example.com': ['93.184.216.34', '127.0.0.1'],
    'rebound.example.com': ['169.254.169.254'],
    'db.internal': ['10.0.0.5'],
    'cache.internal': ['10.0.0.6'],
    'app.corp.example': ['10.9.9.9'],
  });
  const serviceUrls = [
    { url: 'postgres://svc:pw@db.internal:5432/svc', defaultPort: 5432, what: 'database' },
    { url: 'redis://cache.internal', defaultPort: 6379, what: 'Redis' },
  ];
  const policy = (options: { allowPrivateNetworks?: boolean; allowedHosts?: string } = {}) =>
    createEgressPolicy(
      {
        allowPrivateNetworks: options.allowPrivateNetworks ?? false,
        allowedHosts: options.allowedHosts ?? '',
        serviceUrls,
      },
      names,
    );

  it('pins the checked address of a public host', async () => {
    expect(await policy().resolve('api.example.com', 443)).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await policy().resolve('8.8.8.8', 53)).toEqual({ address: '8.8.8.8', family: 4 });
  });

  it('refuses loopback, link-local and unspecified addresses, by literal or by name', async () => {
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      '169.254.169.254',
      'rebound.example.com',
      'sneaky.example.com',
    ]) {
      expect(await refusal(policy({ allowPrivateNetworks: true }).resolve(host, 80)), host).toMatch(
        /not allowed by the egress policy/,
      );
    }
  });

  it('allows private networks only when told to', async () => {
    expect(await refusal(policy().resolve('10.2.3.4', 5432))).toMatch(
      /not allowed by the egress policy \(a private network address/,
    );
    expect(await policy({ allowPrivateNetworks: true }).resolve('10.2.3.4', 5432)).toMatchObject({
      address: '10.2.3.4',
    });
  });

  it("refuses the service's own database and Redis even with private networks allowed, by name or address", async () => {
    const open = policy({ allowPrivateNetworks: true });
    expect(await refusal(open.resolve('db.internal', 5432))).toMatch(
      /not allowed by the egress policy \(the service's own database\)/,
    );
    expect(await refusal(open.resolve('10.0.0.5', 5432))).toMatch(/the service's own database/);
    expect(await refusal(open.resolve('::ffff:10.0.0.6', 6379))).toMatch(/the service's own Redis/);
    // Another port of the same server is another service.
    expect(await open.resolve('10.0.0.5', 5433)).toMatchObject({ address: '10.0.0.5' });
  });

  it('lets the allow-list override every rule, by CIDR or by name', async () => {
    const listed = policy({ allowedHosts: '127.0.0.0/8,db.internal,*.corp.example' });
    expect(await listed.resolve('127.0.0.1', 5432)).toMatchObject({ address: '127.0.0.1' });
    expect(await listed.resolve('::ffff:127.0.0.2', 80)).toMatchObject({ address: '::ffff:127.0.0.2' });
    expect(await listed.resolve('db.internal', 5432)).toMatchObject({ address: '10.0.0.5' });
    expect(await listed.resolve('app.corp.example', 443)).toMatchObject({ address: '10.9.9.9' });
    expect(await refusal(listed.resolve('[::1]', 80))).toMatch(/egress policy/);
    expect(await refusal(listed.resolve('10.0.0.6', 443))).toMatch(/egress policy/);
  });

  it('reports a name that does not resolve as unreachable', async () => {
    await expect(policy().resolve('nowhere.example.com', 443)).rejects.toMatchObject({ code: 'unreachable' });
  });
});

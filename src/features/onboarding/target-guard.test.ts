import { describe, expect, it } from 'vitest';
import { ForbiddenTargetError, TargetGuard, isForbiddenAddress, type Resolver } from './target-guard.js';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '169.254.0.1', '100.64.0.1', '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::',
    'fc00::1', 'fd00:ec2::254', 'fe80::1', 'fe80::1%eth0', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1',
    '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:c0a8:0101::1', 'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::200e'])(
    'allows the public address %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );
});

describe('TargetGuard', () => {
  const dns: Record<string, string[]> = {
    'public.example': ['93.184.215.14'],
    'mixed.example': ['93.184.215.14', '10.0.0.7'],
    'rebind.example': ['::ffff:127.0.0.1'],
  };
  const resolver: Resolver = async (host) => {
    const list = dns[host];
    if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const guard = new TargetGuard({ allowPrivateNetworks: false, resolver });

  it('resolves a public name', async () => {
    await expect(guard.resolve('public.example')).resolves.toEqual([{ address: '93.184.215.14', family: 4 }]);
  });

  it.each(['mixed.example', 'rebind.example', '10.1.2.3', '[::1]', 'localhost', 'metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'app.localhost'])(
    'refuses %s',
    async (host) => {
      await expect(guard.resolve(host)).rejects.toBeInstanceOf(ForbiddenTargetError);
    },
  );

  it('passes DNS failures on as they are', async () => {
    await expect(guard.resolve('nowhere.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('lets everything through with SCAN_ALLOW_PRIVATE_NETWORKS', async () => {
    const open = new TargetGuard({ allowPrivateNetworks: true, resolver });
    await expect(open.resolve('mixed.example')).resolves.toHaveLength(2);
    await expect(open.resolve('127.0.0.1')).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('gives http.request and net.connect only checked addresses through its lookup', async () => {
    const lookup = (host: string, all: boolean) =>
      new Promise((resolve, reject) =>
        guard.lookup(host, { all }, (err, address, family) => (err ? reject(err) : resolve(all ? address : [address, family]))),
      );
    await expect(lookup('public.example', true)).resolves.toEqual([{ address: '93.184.215.14', family: 4 }]);
    await expect(lookup('public.example', false)).resolves.toEqual(['93.184.215.14', 4]);
    await expect(lookup('mixed.example', true)).rejects.toBeInstanceOf(ForbiddenTargetError);
  });
});

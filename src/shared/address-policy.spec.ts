import { AddressPolicy } from './address-policy';

describe("http_get's address policy", () => {
  const policy = new AddressPolicy();

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['172.16.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:a00:1', 'private'],
    ['::7f00:1', 'loopback'],
    ['::a9fe:a9fe', 'linkLocal'],
    ['::a00:1', 'private'],
    ['64:ff9b::7f00:1', 'rfc6052'],
  ])('refuses %s (%s) for a name', (address, range) => {
    expect(policy.refusal(address, 'api.example.com')).toContain(
      `api.example.com resolves to ${address}, which is a ${range} address, not a public one`,
    );
  });

  it('allows public unicast addresses', () => {
    expect(policy.refusal('93.184.216.34', 'api.example.com')).toBeUndefined();
    expect(policy.refusal('2606:2800:220:1:248:1893:25c8:1946', 'api.example.com')).toBeUndefined();
  });

  it('allows every address with HTTP_TOOL_ALLOW_PRIVATE', () => {
    expect(new AddressPolicy(true).refusal('127.0.0.1', 'api.example.com')).toBeUndefined();
  });
});

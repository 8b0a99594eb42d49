import { trustProxy } from './trust-proxy';

describe('TRUST_PROXY', () => {
  const read = (value?: string) => trustProxy({ TRUST_PROXY: value });

  it('trusts no proxy unless told', () => {
    expect(read(undefined)).toBe(false);
    expect(read('')).toBe(false);
    expect(read('false')).toBe(false);
    expect(read('0')).toBe(false);
  });

  it('takes a number of proxies, or their addresses and CIDRs, as Fastify does', () => {
    expect(read('2')).toBe(2);
    expect(read('10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses true, saying what to set instead', () => {
    expect(() => read('true')).toThrow(/TRUST_PROXY=true would trust every hop.*TRUST_PROXY=1.*10\.0\.0\.0\/8/);
  });

  it('refuses what is neither a count nor an address', () => {
    expect(() => read('proxy.example.com')).toThrow('not "proxy.example.com"');
    expect(() => read('10.0.0.0/33')).toThrow('not "10.0.0.0/33"');
    expect(() => read('10.1')).toThrow('not "10.1"');
    expect(() => read('1000')).toThrow('at most 100');
  });
});

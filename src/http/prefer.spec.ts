import { preferredWait } from './prefer';

describe('Prefer: wait', () => {
  it('reads the seconds, capped', () => {
    expect(preferredWait('wait=30', 60)).toBe(30);
    expect(preferredWait('respond-async, wait=100', 60)).toBe(60);
    expect(preferredWait(['handling=lenient', 'Wait="5"'], 60)).toBe(5);
  });

  it('ignores what it cannot honour', () => {
    expect(preferredWait(undefined, 60)).toBeUndefined();
    expect(preferredWait('wait=soon', 60)).toBeUndefined();
    expect(preferredWait('wait=-1', 60)).toBeUndefined();
    expect(preferredWait('return=minimal', 60)).toBeUndefined();
  });
});

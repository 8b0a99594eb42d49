import { withSpanId } from '../shared/trace-context';
import { ChosenOrRandomIds } from './tracing-sdk';

describe('span and trace ids', () => {
  it('draws random hex ids of the W3C lengths, different each time, across refills of the random pool', () => {
    const ids = new ChosenOrRandomIds();
    const traceIds = new Set<string>();
    const spanIds = new Set<string>();
    // 4 KiB of random bytes per refill: 24 bytes per pair, so this crosses many refills.
    for (let i = 0; i < 2000; i++) {
      traceIds.add(ids.generateTraceId());
      spanIds.add(ids.generateSpanId());
    }
    expect(traceIds.size).toBe(2000);
    expect(spanIds.size).toBe(2000);
    expect([...traceIds].every((id) => /^[0-9a-f]{32}$/.test(id) && !/^0+$/.test(id))).toBe(true);
    expect([...spanIds].every((id) => /^[0-9a-f]{16}$/.test(id) && !/^0+$/.test(id))).toBe(true);
  });

  it('gives the span id a caller chose, once, then random ones again', () => {
    const ids = new ChosenOrRandomIds();
    expect(withSpanId('00f067aa0ba902b7', () => ids.generateSpanId())).toBe('00f067aa0ba902b7');
    expect(ids.generateSpanId()).not.toBe('00f067aa0ba902b7');
  });
});

import type { ToolCall } from '../../agents/agent-run/agent-run.state';
import { RecordedCalls } from './recorded-calls';

const call = (id: string, tool: string, input: unknown, result: Partial<ToolCall>): ToolCall => ({
  id,
  tool,
  input,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:00:01.000Z',
  ...result,
});

describe('RecordedCalls', () => {
  const recorded = [
    call(
      'c1',
      'http_get',
      { url: 'https://a.example/', headers: { accept: 'text/plain', range: '0-9' } },
      { output: 'A' },
    ),
    call('c2', 'http_get', { url: 'https://a.example/' }, { output: 'A again' }),
    call('c3', 'mcp:files/read', { path: '/x' }, { error: 'no such file' }),
    call('c4', 'agent:helper', { task: 'Help' }, { output: 'helped' }),
    { ...call('c5', 'current_time', {}, {}), endedAt: null },
  ];

  it('gives each recorded result once, in order, to a call of the same tool with the same arguments', () => {
    const calls = new RecordedCalls(recorded);
    expect(calls.take('http_get', { url: 'https://a.example/' })).toEqual({ output: 'A again' });
    expect(calls.take('http_get', { url: 'https://a.example/' })).toBeUndefined();
    // Key order is no difference; a changed argument is.
    const reordered = { headers: { range: '0-9', accept: 'text/plain' }, url: 'https://a.example/' };
    expect(calls.take('http_get', { ...reordered, url: 'https://b.example/' })).toBeUndefined();
    expect(calls.take('http_get', reordered)).toEqual({ output: 'A' });
    expect(calls.take('mcp:files/read', { path: '/x' })).toEqual({ error: 'no such file' });
  });

  it('keeps no calls of agents, nor calls that never got a result', () => {
    const calls = new RecordedCalls(recorded);
    expect(calls.take('agent:helper', { task: 'Help' })).toBeUndefined();
    expect(calls.take('current_time', {})).toBeUndefined();
  });

  it('leaves out what a resumed trial has replayed already, not what it ran itself', () => {
    const made = [
      { ...call('t1', 'http_get', { url: 'https://a.example/' }, { output: 'A again' }), replayed: true },
      { ...call('t2', 'mcp:files/read', { path: '/x' }, { output: 'ran' }), replayed: false },
    ];
    const calls = new RecordedCalls(recorded, made);
    expect(calls.take('http_get', { url: 'https://a.example/' })).toBeUndefined();
    expect(calls.take('mcp:files/read', { path: '/x' })).toEqual({ error: 'no such file' });
  });
});

import { NewEvent, StreamAppend } from '../event-store';
import { MAX_MEMBERS_WRITTEN_HERE, MAX_WRITTEN_HERE } from './json-bytes';
import { BatchEncoder } from './batch-encoder';

const metadata = { correlationId: 'wfrun_1', schemaVersion: 1 };
const event = (type: string, data: Record<string, unknown>): NewEvent => ({ id: `id-${type}`, type, data, metadata });

/** The data of each event of `parts`, as the encoder hands it to the writer. */
function encodedData(parts: StreamAppend[]): string[] {
  const encoder = new BatchEncoder();
  encoder.add(parts);
  return encoder.decode()[0].parts.flatMap((part) => part.events.map((e) => e.data));
}

/** A value whose JSON is larger than json-bytes.ts writes itself. */
const large = () => ({ items: Array.from({ length: 2000 }, (_, i) => `${i}`.padStart(40, 'x')) });

describe('BatchEncoder', () => {
  it('encodes large event data byte for byte as JSON.stringify, member by member', () => {
    const input = large();
    expect(JSON.stringify(input).length).toBeGreaterThan(MAX_WRITTEN_HERE);
    const values: Array<Record<string, unknown>> = [
      { workflowId: 'wf_1', input, trigger: { type: 'manual' } },
      { input, skipped: undefined, call: () => 1, at: new Date(0), 'a"b\n': 'é', 10: 'ten', 2: 'two' },
      { list: [input, undefined, () => 1], nested: { input } },
      Object.assign(Object.create(null) as Record<string, unknown>, { input }),
      { toJSON: () => ({ replaced: true }), input },
      Object.fromEntries(Array.from({ length: MAX_MEMBERS_WRITTEN_HERE + 1 }, (_, i) => [`k${i}`, `${i}`.repeat(80)])),
    ];
    const data = encodedData([{ stream: 's-1', expected: 'any', events: values.map((v, i) => event(`E${i}`, v)) }]);
    expect(data).toEqual(values.map((value) => JSON.stringify(value)));
  });

  it('serialises a large member that several events of one append share once, and copies its bytes', () => {
    const input = large();
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const data = encodedData([
        { stream: 'workflow-wf_1', expected: 0n, events: [event('WorkflowTriggered', { runId: 'r', input })] },
        { stream: 'workflowrun-r', expected: 'no_stream', events: [event('WorkflowRunQueued', { id: 'r', input })] },
      ]);
      expect(stringify.mock.calls.filter(([value]) => value === input)).toHaveLength(1);
      expect(data).toEqual([JSON.stringify({ runId: 'r', input }), JSON.stringify({ id: 'r', input })]);
    } finally {
      stringify.mockRestore();
    }
  });

  it('adds nothing of an append whose large data has no JSON, and throws as JSON.stringify does', () => {
    const encoder = new BatchEncoder();
    encoder.add([{ stream: 's-0', expected: 'any', events: [event('Kept', { a: 1 })] }]);
    const cycle: Record<string, unknown> = { input: large() };
    cycle.self = cycle;
    for (const data of [{ input: large(), count: 1n }, cycle])
      expect(() => encoder.add([{ stream: 's-1', expected: 'any', events: [event('Bad', data)] }])).toThrow(TypeError);
    const [only, ...rest] = encoder.decode();
    expect(rest).toHaveLength(0);
    expect(only.parts[0].events[0].data).toBe('{"a":1}');
  });
});

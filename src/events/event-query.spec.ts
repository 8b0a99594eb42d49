import { ValidationFailed } from '../shared/validation-failed';
import { parseEventLogQuery, parseHistoryQuery } from './event-query';
import { isSelected, toStoreFilter } from './event-selection';
import { RecordedEvent } from '../event-store/event-store';

const WF = 'wf_01JDQ9N4Z8V7W6X5Y4T3S2R1QP';
const RUN = 'wfrun_01JDQA3B4C5D6E7F8G9H0J1K2M';

function errorsOf(parse: () => unknown) {
  try {
    parse();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors;
    throw error;
  }
  throw new Error('expected a ValidationFailed');
}

describe('the query of GET /v1/events', () => {
  it('defaults to everything from the start, 50 at a time', () => {
    expect(parseEventLogQuery({})).toEqual({
      after: undefined,
      before: undefined,
      fromEnd: false,
      descending: false,
      limit: 50,
      selection: { types: [], streams: [] },
    });
  });

  it('starts at the end with from=end (unless Last-Event-ID resumes), and pages backwards with order=desc', () => {
    expect(parseEventLogQuery({ from: 'end' }).fromEnd).toBe(true);
    expect(parseEventLogQuery({ from: 'end' }, { lastEventId: '7' })).toMatchObject({ fromEnd: false, after: 7n });
    expect(parseEventLogQuery({ order: 'desc', before: '10' })).toMatchObject({ descending: true, before: 10n });
    expect(errorsOf(() => parseEventLogQuery({ from: 'start' }))).toEqual([
      { path: 'from', message: 'from must be end' },
    ]);
    expect(errorsOf(() => parseEventLogQuery({ order: 'desc' }, { stream: true }))[0].path).toBe('order');
    expect(errorsOf(() => parseEventLogQuery({ before: '3' }))[0].path).toBe('before');
    expect(errorsOf(() => parseEventLogQuery({ order: 'desc', after: '3' }))[0].path).toBe('after');
    expect(errorsOf(() => parseEventLogQuery({ from: 'end', after: '3' }))[0].path).toBe('from');
    expect(errorsOf(() => parseEventLogQuery({ order: 'sideways' }))[0].path).toBe('order');
  });

  it('takes types and streams repeated or comma-separated, without repeats', () => {
    const query = parseEventLogQuery({
      types: ['WorkflowTriggered,AgentRunSucceeded', 'WorkflowTriggered'],
      stream: `workflow-${WF}, workflowrun-${RUN}`,
      after: '42',
      limit: '200',
    });
    expect(query).toMatchObject({
      after: 42n,
      limit: 200,
      selection: {
        types: ['WorkflowTriggered', 'AgentRunSucceeded'],
        streams: [`workflow-${WF}`, `workflowrun-${RUN}`],
      },
    });
  });

  it('resumes after Last-Event-ID rather than after, as a reconnecting browser sends both', () => {
    expect(parseEventLogQuery({ after: '5' }, { lastEventId: '9' }).after).toBe(9n);
    expect(parseEventLogQuery({ after: '5' }, { lastEventId: '' }).after).toBe(5n);
  });

  it('keeps positions past 2^53 exact', () => {
    expect(parseEventLogQuery({ after: '18446744073709551615' }).after).toBe(18446744073709551615n);
  });

  it('refuses bad values, naming each', () => {
    expect(
      errorsOf(() =>
        parseEventLogQuery({
          after: '-1',
          limit: '0',
          types: 'workflowTriggered',
          stream: 'workflow-agent_1',
          colour: 'red',
        }),
      ).map((error) => error.path),
    ).toEqual(['colour', 'after', 'types', 'stream', 'limit']);
    expect(errorsOf(() => parseEventLogQuery({}, { lastEventId: 'abc' }))).toEqual([
      { path: 'Last-Event-ID', message: expect.stringContaining('decimal') },
    ]);
    expect(errorsOf(() => parseEventLogQuery({ after: ['1', '2'] }))).toEqual([
      { path: 'after', message: 'after must be given once' },
    ]);
    expect(errorsOf(() => parseEventLogQuery({ stream: 'no stream' }))[0].message).toContain('stream name');
    expect(errorsOf(() => parseEventLogQuery({ limit: '201' }))[0].message).toBe(
      'limit must be an integer from 1 to 200',
    );
  });

  it('checks the id of a known stream category, and only the shape of others', () => {
    expect(errorsOf(() => parseEventLogQuery({ stream: `workflow-${RUN}` }))[0].message).toContain('workflow-wf_');
    expect(parseEventLogQuery({ stream: 'agentname-0a1b' }).selection.streams).toEqual(['agentname-0a1b']);
  });
});

describe('the query of the history routes', () => {
  it('takes a revision and a limit, nothing else', () => {
    expect(parseHistoryQuery({ after: '0', limit: '2' })).toEqual({ after: 0n, limit: 2 });
    expect(errorsOf(() => parseHistoryQuery({ types: 'AgentCreated' }))).toEqual([
      { path: 'types', message: 'is not a known parameter' },
    ]);
  });
});

describe('an event selection', () => {
  const event = (type: string, stream: string) => ({ type, stream }) as RecordedEvent;

  it('matches streams exactly, as the store filters them (by index, not by prefix)', () => {
    const selection = { types: [], streams: ['workflow-wf_1'] };
    expect(toStoreFilter(selection)).toEqual({ eventTypes: [], streams: ['workflow-wf_1'] });
    expect(isSelected(selection, event('WorkflowCreated', 'workflow-wf_1'))).toBe(true);
    expect(isSelected(selection, event('WorkflowCreated', 'workflow-wf_10'))).toBe(false);
  });

  it('matches any of the types, and everything when empty', () => {
    expect(isSelected({ types: ['A', 'B'], streams: [] }, event('B', 'x-1'))).toBe(true);
    expect(isSelected({ types: ['A'], streams: [] }, event('B', 'x-1'))).toBe(false);
    expect(isSelected({ types: [], streams: [] }, event('B', 'x-1'))).toBe(true);
  });
});

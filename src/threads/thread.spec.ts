import { given } from '../../test/support/decider-specification';
import { ThreadEvent, threadDecider } from './thread';

const at = '2026-03-01T12:00:00.000Z';
const created: ThreadEvent = {
  type: 'ThreadCreated',
  data: { id: 'thread_1', agentId: 'agent_1', metadata: {}, createdAt: at },
};
const summarize = (throughSeq: number) =>
  ({
    type: 'SummarizeThread',
    threadId: 'thread_1',
    summary: `through ${throughSeq}`,
    throughSeq,
    runId: 'run_1',
  }) as const;
const summarized = (throughSeq: number): ThreadEvent => ({
  type: 'ThreadSummarized',
  data: { threadId: 'thread_1', summary: `through ${throughSeq}`, throughSeq, runId: 'run_1', summarizedAt: at },
});

describe('thread decider: summaries', () => {
  it('records a summary that folds in more messages than the last one, and only such a one', () => {
    given(threadDecider, [created])
      .when(summarize(9), new Date(at))
      .then([summarized(9)]);
    given(threadDecider, [created, summarized(9)])
      .when(summarize(9), new Date(at))
      .then([]);
    given(threadDecider, [created, summarized(9)])
      .when(summarize(5), new Date(at))
      .then([]);
    given(threadDecider, [created, summarized(9)])
      .when(summarize(19), new Date(at))
      .then([summarized(19)]);
    given(threadDecider, [created, summarized(9)]).thenState(expect.objectContaining({ summaryThrough: 9 }));
    given(threadDecider, []).when(summarize(9), new Date(at)).thenRefuses('not_found');
  });
});

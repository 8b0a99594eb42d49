import { Injectable } from '@nestjs/common';
import { AgentRunQueued, keepsTurn } from '../../agents/agent-run/agent-run.events';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import {
  THREAD_EVENT_TYPES,
  ThreadArchived,
  ThreadCreated,
  ThreadExchangeRecorded,
  ThreadSummarized,
  threadStream,
} from '../thread';
import { ThreadsReadModel } from './threads.read-model';

/**
 * Keeps threads, their messages and their runs in step with the log: a run on a thread is open from its queueing
 * until it fails, is cancelled, or its exchange is recorded (a run that succeeded, or was interrupted by a later
 * turn, is settled by its exchange). The threads of a forgotten subject are dropped.
 */
@Injectable()
export class ThreadsProjection extends ReadModelProjection {
  readonly name = 'threads';
  readonly eventTypes = [
    ...THREAD_EVENT_TYPES,
    'AgentRunQueued',
    'AgentRunFailed',
    'AgentRunCancelled',
    'SubjectForgotten',
  ];

  constructor(
    private readonly readModel: ThreadsReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(event: RecordedEvent): void {
    switch (event.type) {
      case 'ThreadCreated':
        return this.readModel.createThread(event.data as ThreadCreated['data']);
      case 'ThreadArchived': {
        const { threadId, archivedAt } = event.data as ThreadArchived['data'];
        return this.readModel.archive(threadId, archivedAt);
      }
      case 'ThreadExchangeRecorded': {
        const { threadId, runId, messages, recordedAt } = event.data as ThreadExchangeRecorded['data'];
        return this.readModel.addExchange(threadId, runId, messages, recordedAt);
      }
      case 'ThreadSummarized': {
        const { threadId, summary, throughSeq } = event.data as ThreadSummarized['data'];
        return this.readModel.summarized(threadId, summary, throughSeq);
      }
      case 'AgentRunQueued': {
        const { id, threadId } = event.data as AgentRunQueued['data'];
        if (threadId) this.readModel.runQueued(threadId, id, event.position);
        return;
      }
      case 'SubjectForgotten':
        // The threads about a forgotten subject are gone.
        for (const stream of (event.data as { streams: string[] }).streams) {
          if (stream.startsWith(threadStream(''))) this.readModel.forget(stream.slice(threadStream('').length));
        }
        return;
      case 'AgentRunFailed':
      case 'AgentRunCancelled':
        // An interrupted turn is settled by its exchange, as a success is.
        if (event.data.threadId && !keepsTurn(event)) this.readModel.runSettled(event.data.runId as string);
    }
  }
}

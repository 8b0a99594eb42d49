import { Inject, Injectable, Type, applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RunStatus } from '../domain/run';
import { StreamWatch } from '../live/stream-watch';
import { preferredWait } from './prefer';

/**
 * The OpenAPI description of a route that queues a run and answers as PreferWait does: the `Prefer` header, and the
 * run in a 200 (`ended`: it ended within the wait) and a 202 (`pending`: queued, or still going).
 */
export function ApiPreferWait(type: Type<unknown>, described: { ended: string; pending: string }): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'Prefer',
      required: false,
      description:
        '`wait=<seconds>`: answer once the run has ended (200), or with the run as it stands when the time is up (202).',
    }),
    ApiResponse({ status: 200, type, description: described.ended }),
    ApiResponse({ status: 202, type, description: described.pending }),
  );
}

/** A run that a request queued, as the wait follows it. */
export interface WaitedRun<Run> {
  /** Where the run is read: the answer's `Location`. */
  location: string;
  /** The run's stream, whose events may end it. */
  stream: string;
  /** The run as the read models show it now. */
  current: () => Run;
  /** Whether a waiting run waits for a person (an agent run's tool calls to approve): it is answered at once. */
  orWaiting?: (run: Run) => boolean;
  /** Event types of other streams after which `orWaiting` is asked again (a child run's request for approval). */
  alsoOn?: readonly string[];
  /** What an ended run waits for besides, before its 200 (a thread's turn in the thread's messages). */
  settled?: (run: Run) => Promise<void>;
}

/**
 * The answer to every request that queues a run (a run, a thread's turn, a replay, a trigger): 202 with the queued
 * run; with `Prefer: wait=<seconds>` (capped by `RUN_WAIT_MAX_SECONDS`), 200 with the run once it has ended, or 202
 * with the run as it stands when the time is up.
 */
@Injectable()
export class PreferWait {
  constructor(
    private readonly watch: StreamWatch,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'runs'>,
  ) {}

  async answer<Run extends { status: RunStatus }>(
    queued: Run,
    prefer: string | undefined,
    reply: FastifyReply,
    waited: WaitedRun<Run>,
  ): Promise<Run> {
    void reply.header('Location', waited.location);
    const wait = preferredWait(prefer, this.config.runs.waitMaxSeconds);
    if (wait === undefined) {
      void reply.status(202);
      return queued;
    }
    void reply.header('Preference-Applied', `wait=${wait}`);
    const { stream, current, orWaiting, alsoOn } = waited;
    const { run, ended } = await this.watch.runEnding(stream, current, wait * 1000, orWaiting, alsoOn);
    if (ended) await waited.settled?.(run);
    void reply.status(ended ? 200 : 202);
    return run;
  }
}

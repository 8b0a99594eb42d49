import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ValidationFailed } from '../../shared/validation-failed';
import { preferredWait } from '../../http/prefer';
import { StreamWatch } from '../../live/stream-watch';
import { AgentRun } from '../agent-run/agent-run.state';
import { agentRunStream } from '../agent-run/agent-run.events';
import { outputSchemaErrors } from '../create-agent/agent-definition';
import { AgentsReadModel } from '../queries/agents.read-model';
import { ThreadTurns } from '../thread-turns.port';

/** How `Prefer: wait` is described wherever a run is queued. */
export const PREFER_WAIT_HEADER = {
  name: 'Prefer',
  required: false,
  description:
    '`wait=<seconds>`: answer once the run has ended (200), or with the run as it stands when the time is up (202).',
};

/** A run's `outputSchema` from a request body: a 400 naming it when it is not one, before anything is recorded. */
export async function checkRunSchema(outputSchema: unknown): Promise<void> {
  const errors = await outputSchemaErrors(outputSchema);
  if (errors.length) throw new ValidationFailed(errors);
}

/**
 * The answer to a request that queued a run (a run, a thread's run, a replay): 202 with the queued run; with `Prefer: wait=<seconds>`, 200 with the
 * run once it has ended (and, on a thread, once its turn is in the thread's messages), or 202 with the run as it
 * stands when the time is up or once it waits for a person.
 */
@Injectable()
export class RunAnswers {
  constructor(
    private readonly watch: StreamWatch,
    private readonly runs: AgentsReadModel,
    private readonly turns: ThreadTurns,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'runs'>,
  ) {}

  async answer(queued: AgentRun, prefer: string | undefined, reply: FastifyReply): Promise<AgentRun> {
    void reply.header('Location', `/v1/agents/${queued.agentId}/runs/${queued.id}`);
    const wait = preferredWait(prefer, this.config.runs.waitMaxSeconds);
    if (wait === undefined) {
      void reply.status(202);
      return queued;
    }
    void reply.header('Preference-Applied', `wait=${wait}`);
    const current = () => this.runs.getRun(queued.agentId, queued.id) ?? queued;
    const { run, ended } = await this.watch.runEnding(agentRunStream(queued.id), current, wait * 1000, true);
    // A run on a thread: its turn is readable too.
    if (ended) await this.turns.recorded(run);
    void reply.status(ended ? 200 : 202);
    return run;
  }
}

import { Body, Controller, Headers, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AgentRun } from '../../agents/agent-run/agent-run.state';
import { AgentRuns, ApiAgentRunAnswers, RunTaskDto, RunThreadTaskDto } from '../../agents/agent-runs.port';
import { DomainError } from '../../domain/decider';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { ThreadsReadModel } from '../queries/threads.read-model';
import { ThreadMultitask } from './thread-multitask';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext } from '../../shared/trace-context';

@ApiTags('threads')
@Controller('v1/threads')
export class RunThreadController {
  constructor(
    private readonly threads: ThreadsReadModel,
    private readonly runs: AgentRuns,
    private readonly multitask: ThreadMultitask,
  ) {}

  /**
   * Runs the thread's agent on the next task of the conversation: 202 with the agent run (its `threadId` set),
   * `Prefer: wait` as for agents. Runs on one thread execute one at a time, in the order they were posted;
   * `multitask` says what happens to a turn that has not ended (409 `thread-busy` for `reject`).
   */
  @ApiOperation({ summary: 'Send the next task of a thread' })
  @ApiAgentRunAnswers({ ended: 'The run ended within the wait', pending: 'The run is queued (or still going)' })
  @ApiProblems(404, 409)
  @Post(':threadId/runs')
  async run(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('threadId', 'thread') threadId: string,
    @Body() body: RunThreadTaskDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRun> {
    const { agentId: startAgentId, multitask = 'enqueue', ...task } = body;
    const queued = await this.multitask.send(threadId, multitask, (superseding) => {
      const on = () => ({ agentId: this.agentOf(threadId), threadId, startAgentId, multitask: superseding });
      return this.runs.queue(Object.assign(new RunTaskDto(), task), on, trace);
    });
    return this.runs.answer(queued, prefer, reply);
  }

  private agentOf(threadId: string): string {
    const thread = this.threads.get(threadId);
    if (!thread) throw new DomainError('not_found', `Thread ${threadId} does not exist`);
    return thread.agentId;
  }
}

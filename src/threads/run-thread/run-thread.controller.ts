import { Body, Controller, Headers, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AgentRun } from '../../agents/agent-run/agent-run.state';
import { AgentRunSchema } from '../../agents/agent.schema';
import { RunAgentCommand } from '../../agents/run-agent/run-agent.command';
import { RunTaskDto } from '../../agents/run-agent/run-agent.dto';
import { PREFER_WAIT_HEADER, RunAnswers, checkRunSchema } from '../../agents/run-agent/run-answer';
import { DomainError } from '../../domain/decider';
import { ParseIdPipe } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { ThreadsReadModel } from '../queries/threads.read-model';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('threads')
@Controller('v1/threads')
export class RunThreadController {
  constructor(
    private readonly commands: CommandBus,
    private readonly threads: ThreadsReadModel,
    private readonly answers: RunAnswers,
  ) {}

  /**
   * Runs the thread's agent on the next task of the conversation: 202 with the agent run (its `threadId` set),
   * `Prefer: wait` as for agents. Runs on one thread execute one at a time, in the order they were posted.
   */
  @ApiOperation({ summary: 'Send the next task of a thread' })
  @ApiHeader(PREFER_WAIT_HEADER)
  @ApiResponse({ status: 200, type: AgentRunSchema, description: 'The run ended within the wait' })
  @ApiResponse({ status: 202, type: AgentRunSchema, description: 'The run is queued (or still going)' })
  @ApiProblems(404, 409)
  @Post(':threadId/runs')
  async run(
    @RequestTrace() trace: TraceContext | undefined,
    @Param('threadId', new ParseIdPipe('thread', 'threadId')) threadId: string,
    @Body() body: RunTaskDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AgentRun> {
    await checkRunSchema(body.outputSchema);
    const thread = this.threads.get(threadId);
    if (!thread) throw new DomainError('not_found', `Thread ${threadId} does not exist`);
    const queued = await this.commands.execute(
      withTrace(new RunAgentCommand(thread.agentId, body.task, body.context, body.outputSchema, threadId), trace),
    );
    return this.answers.answer(queued, prefer, reply);
  }
}

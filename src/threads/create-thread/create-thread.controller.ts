import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { ThreadView } from '../queries/threads.read-model';
import { ThreadSchema } from '../thread.schema';
import { CreateThreadCommand } from './create-thread.command';
import { CreateThreadDto } from './create-thread.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('threads')
@Controller('v1/threads')
export class CreateThreadController {
  constructor(private readonly commands: CommandBus) {}

  /** 201 with the thread; 422 when the agent does not exist, 409 when it is archived. */
  @ApiOperation({ summary: 'Start a thread (a conversation with an agent)' })
  @ApiResponse({ status: 201, type: ThreadSchema })
  @ApiProblems(409, 422)
  @Post()
  @HttpCode(201)
  async create(
    @RequestTrace() trace: TraceContext | undefined,
    @Body() body: CreateThreadDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ThreadView> {
    const thread = await this.commands.execute(
      withTrace(new CreateThreadCommand(body.agentId, body.metadata, body.subjectId), trace),
    );
    void reply.header('Location', `/v1/threads/${thread.id}`);
    return thread;
  }
}

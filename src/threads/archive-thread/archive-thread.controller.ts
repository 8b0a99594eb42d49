import { Controller, Delete, HttpCode } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { ThreadView } from '../queries/threads.read-model';
import { ThreadSchema } from '../thread.schema';
import { ArchiveThreadCommand } from './archive-thread.command';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('threads')
@Controller('v1/threads')
export class ArchiveThreadController {
  constructor(private readonly commands: CommandBus) {}

  /** 200 with the archived thread, again on a repeat. Its messages stay readable; it takes no more runs. */
  @ApiOperation({ summary: 'Archive a thread' })
  @ApiResponse({ status: 200, type: ThreadSchema })
  @ApiProblems(404)
  @Delete(':threadId')
  @HttpCode(200)
  archive(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('threadId', 'thread') threadId: string,
  ): Promise<ThreadView> {
    return this.commands.execute(withTrace(new ArchiveThreadCommand(threadId), trace));
  }
}

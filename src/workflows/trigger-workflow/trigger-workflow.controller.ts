import { Body, Controller, Headers, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { WorkflowRunSchema } from '../workflow-run.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ParseIdPipe } from '../../http/id.pipe';
import { preferredWait } from '../../http/prefer';
import { StreamWatch } from '../../live/stream-watch';
import { WorkflowsReadModel } from '../queries/workflows.read-model';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { workflowRunStream } from '../workflow-run/workflow-run.events';
import { TriggerWorkflowCommand } from './trigger-workflow.command';
import { TriggerWorkflowDto } from './trigger-workflow.dto';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class TriggerWorkflowController {
  constructor(
    private readonly commands: CommandBus,
    private readonly watch: StreamWatch,
    private readonly runs: WorkflowsReadModel,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * 202: the run is recorded and queued; its steps are executed in the background. With `Prefer: wait=<seconds>`:
   * 200 with the run once it has ended, or 202 with the run as it stands when the time is up.
   */
  @ApiOperation({ summary: 'Trigger a workflow' })
  @ApiHeader({
    name: 'Prefer',
    required: false,
    description:
      '`wait=<seconds>`: answer once the run has ended (200), or with the run as it stands when the time is up (202).',
  })
  @ApiResponse({ status: 200, type: WorkflowRunSchema, description: 'The run ended within the wait' })
  @ApiResponse({ status: 202, type: WorkflowRunSchema, description: 'The run is queued (or still going)' })
  @ApiProblems(404, 409)
  @Post(':workflowId/trigger')
  async trigger(
    @RequestTrace() trace: TraceContext | undefined,
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Body() body: TriggerWorkflowDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowRun> {
    const queued = await this.commands.execute(withTrace(new TriggerWorkflowCommand(workflowId, body.input), trace));
    void reply.header('Location', `/v1/workflows/${workflowId}/runs/${queued.id}`);
    const wait = preferredWait(prefer, this.config.runs.waitMaxSeconds);
    if (wait === undefined) {
      void reply.status(202);
      return queued;
    }
    void reply.header('Preference-Applied', `wait=${wait}`);
    const current = () => this.runs.getRun(workflowId, queued.id) ?? queued;
    const { run, ended } = await this.watch.runEnding(workflowRunStream(queued.id), current, wait * 1000);
    void reply.status(ended ? 200 : 202);
    return run;
  }
}

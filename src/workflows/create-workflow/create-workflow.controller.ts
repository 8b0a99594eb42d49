import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { WorkflowSchema } from '../workflow.schema';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { WorkflowView } from '../workflow-view';
import { CreateWorkflowCommand } from './create-workflow.command';
import { CreateWorkflowDto, policyOf } from './create-workflow.dto';
import { checkInputSchema } from './input-schema-check';
import { toWorkflowSteps } from './step-graph-check';
import { toTrigger } from './workflow-trigger';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';

@ApiTags('workflows')
@Controller('v1/workflows')
export class CreateWorkflowController {
  constructor(private readonly commands: CommandBus) {}

  @ApiOperation({ summary: 'Create a workflow' })
  @ApiResponse({ status: 201, type: WorkflowSchema })
  @ApiProblems(422)
  @Post()
  @HttpCode(201)
  async create(
    @RequestTrace() trace: TraceContext | undefined,
    @Body() body: CreateWorkflowDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowView> {
    const steps = toWorkflowSteps(body.steps, body.outputStep, body.name);
    await checkInputSchema(body.inputSchema, steps);
    const workflow = await this.commands.execute(
      withTrace(
        new CreateWorkflowCommand(body.name, toTrigger(body.trigger), steps, {
          ...(body.outputStep !== undefined && { outputStep: body.outputStep }),
          ...(body.inputSchema && { inputSchema: body.inputSchema }),
          ...policyOf(body),
        }),
        trace,
      ),
    );
    void reply.header('Location', `/v1/workflows/${workflow.id}`);
    return workflow;
  }
}

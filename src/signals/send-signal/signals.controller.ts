import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';
import { SignalSchema } from '../signal.schema';
import { SendSignalCommand } from './send-signal.command';
import { SendSignalDto } from './send-signal.dto';

@ApiTags('signals')
@Controller('v1/signals')
export class SignalsController {
  constructor(private readonly commands: CommandBus) {}

  /** 202: the signal is recorded, and handed to the waiting steps `delivered` names (each goes on from there). */
  @ApiOperation({ summary: 'Send a signal to the workflow runs waiting for it (by name and key)' })
  @ApiResponse({ status: 202, type: SignalSchema })
  @ApiProblems(403)
  @Post()
  @HttpCode(202)
  send(@RequestTrace() trace: TraceContext | undefined, @Body() body: SendSignalDto) {
    const command = new SendSignalCommand(body.name, body.key ?? null, body.data ?? null);
    return this.commands.execute(withTrace(command, trace));
  }
}

import { Body, Controller, Delete, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';
import { checkAddress } from '../memory-address';
import { MemoryItemSchema } from '../memory.schema';
import { ApiKey, ApiNamespace } from '../memory-params';
import { DeleteMemoryCommand, PutMemoryCommand } from './memory-write.commands';
import { PutMemoryDto } from './put-memory.dto';

@ApiTags('memory')
@Controller('v1/memory')
export class MemoryWritesController {
  constructor(private readonly commands: CommandBus) {}

  /** 200 with the item's new version, once it is durable and readable. */
  @ApiOperation({ summary: 'Put a memory item: a new version of it' })
  @ApiNamespace()
  @ApiKey()
  @ApiResponse({ status: 200, type: MemoryItemSchema })
  @ApiProblems(403)
  @Put(':namespace/:key')
  put(
    @RequestTrace() trace: TraceContext | undefined,
    @Param('namespace') namespace: string,
    @Param('key') key: string,
    @Body() body: PutMemoryDto,
  ) {
    checkAddress(namespace, key);
    return this.commands.execute(withTrace(new PutMemoryCommand(namespace, key, body.value, body.ttlSeconds), trace));
  }

  /** 204: the item is gone from reads and search; its versions stay in its history. */
  @ApiOperation({ summary: 'Delete a memory item' })
  @ApiNamespace()
  @ApiKey()
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiProblems(403, 404)
  @Delete(':namespace/:key')
  @HttpCode(204)
  async delete(
    @RequestTrace() trace: TraceContext | undefined,
    @Param('namespace') namespace: string,
    @Param('key') key: string,
  ): Promise<void> {
    checkAddress(namespace, key);
    await this.commands.execute(withTrace(new DeleteMemoryCommand(namespace, key), trace));
  }
}

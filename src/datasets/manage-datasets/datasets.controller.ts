import { Body, Controller, Delete, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { RequestTrace } from '../../http/request-trace';
import { TraceContext, withTrace } from '../../shared/trace-context';
import { DatasetItemSchema, DatasetSchema } from '../dataset.schema';
import {
  AddDatasetItemCommand,
  ArchiveDatasetCommand,
  CreateDatasetCommand,
  RemoveDatasetItemCommand,
} from './dataset.commands';
import { AddDatasetItemDto, CreateDatasetDto } from './dataset.dto';

@ApiTags('datasets')
@Controller('v1/datasets')
export class DatasetsController {
  constructor(private readonly commands: CommandBus) {}

  @ApiOperation({ summary: 'Create a dataset: inputs, each with the answer expected, to run an agent or workflow on' })
  @ApiResponse({ status: 201, type: DatasetSchema })
  @ApiProblems(403)
  @Post()
  @HttpCode(201)
  async create(
    @RequestTrace() trace: TraceContext | undefined,
    @Body() body: CreateDatasetDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const command = new CreateDatasetCommand(body.name, body.description ?? '', body.target);
    const dataset = await this.commands.execute(withTrace(command, trace));
    void reply.header('Location', `/v1/datasets/${dataset.id}`);
    return dataset;
  }

  /** 200 with the archived dataset, again on a repeat. Its items stay, as they were, for experiments to read. */
  @ApiOperation({ summary: 'Archive a dataset (it takes no more changes)' })
  @ApiResponse({ status: 200, type: DatasetSchema })
  @ApiProblems(403, 404)
  @Post(':datasetId/archive')
  @HttpCode(200)
  archive(@RequestTrace() trace: TraceContext | undefined, @IdParam('datasetId', 'dataset') datasetId: string) {
    return this.commands.execute(withTrace(new ArchiveDatasetCommand(datasetId), trace));
  }

  /** 201 with the item; each item added makes the dataset's next version. */
  @ApiOperation({ summary: 'Add an item to a dataset, given by hand or made from a run' })
  @ApiResponse({ status: 201, type: DatasetItemSchema })
  @ApiProblems(403, 404, 409, 422)
  @Post(':datasetId/items')
  @HttpCode(201)
  async addItem(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('datasetId', 'dataset') datasetId: string,
    @Body() body: AddDatasetItemDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const item = await this.commands.execute(withTrace(new AddDatasetItemCommand(datasetId, body), trace));
    void reply.header('Location', `/v1/datasets/${datasetId}/items/${item.id}`);
    return item;
  }

  @ApiOperation({ summary: 'Remove an item from a dataset (its earlier versions keep it)' })
  @ApiResponse({ status: 204, description: 'Removed.' })
  @ApiProblems(403, 404, 409)
  @Delete(':datasetId/items/:itemId')
  @HttpCode(204)
  async removeItem(
    @RequestTrace() trace: TraceContext | undefined,
    @IdParam('datasetId', 'dataset') datasetId: string,
    @IdParam('itemId', 'dsitem') itemId: string,
  ): Promise<void> {
    await this.commands.execute(withTrace(new RemoveDatasetItemCommand(datasetId, itemId), trace));
  }
}

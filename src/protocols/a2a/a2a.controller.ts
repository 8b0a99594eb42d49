import { Controller, Get, Param, Post, Req, Res, applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { A2aEndpoint } from './a2a-endpoint';

const CARD = {
  type: 'object',
  additionalProperties: true,
  description: 'An A2A agent card (A2A 1.0, with the 0.3 fields `url` and `protocolVersion` beside).',
} as const;
const JSON_RPC = { type: 'object', additionalProperties: true, description: 'A JSON-RPC 2.0 message of A2A.' } as const;
const AGENT_NAME = ApiParam({
  name: 'agentName',
  description: 'The name of an active agent.',
  schema: { maxLength: 200 },
});

function ApiCard(summary: string): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary, description: 'See docs/protocols.md.' }),
    ApiResponse({ status: 200, description: 'The card', content: { 'application/json': { schema: CARD } } }),
  );
}

/** The service as an A2A server: agent cards, and each agent's JSON-RPC endpoint (docs/protocols.md). */
@ApiTags('protocols')
@Controller()
export class A2aController {
  constructor(private readonly endpoint: A2aEndpoint) {}

  @ApiCard("The service's A2A card: its agents, each with its own card")
  @Get('.well-known/agent-card.json')
  serviceCard(@Req() request: FastifyRequest): unknown {
    return this.endpoint.serviceCard(request);
  }

  @ApiCard("An agent's A2A card")
  @AGENT_NAME
  @ApiResponse({ status: 404, description: 'There is no active agent of that name' })
  @Get('a2a/:agentName/.well-known/agent-card.json')
  agentCard(@Param('agentName') agentName: string, @Req() request: FastifyRequest): unknown {
    return this.endpoint.agentCard(agentName, request);
  }

  @ApiOperation({
    summary: 'Send an A2A request to an agent',
    description:
      'JSON-RPC: SendMessage, SendStreamingMessage, GetTask, CancelTask, SubscribeToTask (A2A 1.0), and message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe (0.3). See docs/protocols.md.',
  })
  @AGENT_NAME
  @ApiBody({ schema: JSON_RPC })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiResponse({
    status: 200,
    description: 'The JSON-RPC response, or for a streaming method its responses as server-sent events',
    content: {
      'application/json': { schema: JSON_RPC },
      'text/event-stream': { schema: { type: 'string', description: 'JSON-RPC responses as server-sent events.' } },
    },
  })
  @ApiResponse({ status: 404, description: 'There is no active agent of that name' })
  @Post('a2a/:agentName')
  send(
    @Param('agentName') agentName: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.endpoint.handle(agentName, request, reply);
  }
}

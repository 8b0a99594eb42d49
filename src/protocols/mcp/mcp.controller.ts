import { Controller, Delete, Get, Post, Req, Res, applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { McpSessions } from './mcp-sessions';

const JSON_RPC = { type: 'object', additionalProperties: true, description: 'A JSON-RPC 2.0 message of MCP.' };
const GUIDE = 'The MCP Streamable HTTP transport; see docs/protocols.md. Send `Mcp-Session-Id` after `initialize`.';

/** What every `/mcp` operation answers: the protocol's own messages, or a refusal of the key or the rate limit. */
function ApiMcp(summary: string, answers: string): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary, description: GUIDE }),
    ApiProduces('application/json', 'text/event-stream'),
    ApiResponse({
      status: 200,
      description: answers,
      content: {
        'application/json': { schema: JSON_RPC },
        'text/event-stream': { schema: { type: 'string', description: 'JSON-RPC messages as server-sent events.' } },
      },
    }),
    ApiResponse({ status: 400, description: 'No session, or a message the protocol does not allow' }),
    ApiResponse({ status: 404, description: 'No such session here: start a new one with `initialize`' }),
  );
}

/**
 * `/mcp`: the MCP server's one endpoint (Streamable HTTP). POST carries the client's messages, GET opens the
 * session's own event stream (for `notifications/tools/list_changed`), DELETE ends the session.
 */
@ApiTags('protocols')
@Controller('mcp')
export class McpController {
  constructor(private readonly sessions: McpSessions) {}

  @ApiMcp('Send MCP messages', 'The answers, as JSON or as an event stream (a tool call sends its progress on it)')
  @ApiBody({ schema: JSON_RPC })
  @ApiResponse({ status: 202, description: 'Notifications and responses taken' })
  @Post()
  post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.sessions.handle(request, reply);
  }

  @ApiMcp("Open the MCP session's event stream", "The session's notifications, as an event stream")
  @Get()
  get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.sessions.handle(request, reply);
  }

  @ApiMcp('End the MCP session', 'The session is closed')
  @Delete()
  delete(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.sessions.handle(request, reply);
  }
}

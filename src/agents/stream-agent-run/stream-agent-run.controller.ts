import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../http/openapi/problem.schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/decider';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../event-store/event-store';
import { IdParam } from '../../http/id.pipe';
import { SseStreams } from '../../http/sse-streams';
import { RunFeed } from '../../live/run-feed';
import { StreamWatch } from '../../live/stream-watch';
import { agentRunStream } from '../agent-run/agent-run.events';
import { AgentsReadModel } from '../queries/agents.read-model';
import { AgentRunStream } from './agent-run-stream';

@ApiTags('agents')
@Controller('v1/agents')
export class StreamAgentRunController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly watch: StreamWatch,
    private readonly feed: RunFeed,
    private readonly runs: AgentsReadModel,
    private readonly streams: SseStreams,
  ) {}

  /**
   * Server-sent events of a run: what it recorded so far, the text written so far in one `delta`, then what
   * happens live, and a last `end` carrying the whole run. A run that has already ended replays what it recorded,
   * then sends `end`.
   */
  @ApiOperation({ summary: 'Watch a run as it happens (server-sent events)' })
  @ApiProduces('text/event-stream')
  @ApiResponse({
    status: 200,
    description: 'Events `status`, `delta`, `tool_call`, `tool_result`, and a last `end` with the whole run.',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiProblems(404)
  @Get(':agentId/runs/:runId/stream')
  async stream(
    @IdParam('agentId', 'agent') agentId: string,
    @IdParam('runId', 'agentrun') runId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!this.runs.getRun(agentId, runId)) {
      throw new DomainError('not_found', `Agent run ${runId} of agent ${agentId} does not exist`);
    }
    // The stream is counted first, so that a client over its limit is refused before anything is followed.
    const sse = this.streams.start(request, reply, () => {
      stopWatching();
      stopFeed();
    });
    const stream = agentRunStream(runId);
    let replaying = true;
    const live: Array<RecordedEvent | string> = [];
    const stopWatching = this.watch.watch(stream, (event) => (replaying ? live.push(event) : forward(event)));
    const feed = this.feed.follow(runId, (text) => (replaying ? live.push(text) : view.delta(text)));
    // Opened mid-run: the text so far comes first, in one `delta`, after what the run recorded until now.
    if (feed.soFar) live.unshift(feed.soFar);
    const stopFeed = feed.stop;
    const stop = () => sse.end();
    const view = new AgentRunStream(sse);
    const forward = (item: RecordedEvent | string) => {
      if (typeof item === 'string') view.delta(item);
      else if (view.recorded(item)) stop();
    };
    try {
      const { events } = await this.store.readStream(stream);
      // The log can be ahead of the read models. What they do not show yet comes from the watch once they do, so
      // that whatever the stream tells is there for the client's next read of the run.
      for (const event of events) {
        if (!this.watch.shows(event.position)) break;
        forward(event);
      }
    } catch {
      // Without what the run recorded so far the live events cannot be told in context: end the stream, and
      // let the client reconnect (EventSource does so by itself).
      sse.end();
      return;
    }
    replaying = false;
    for (const item of live.splice(0)) forward(item);
  }
}

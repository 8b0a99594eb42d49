import { Module } from '@nestjs/common';
import { CancelAgentRunController } from './cancel-agent-run/cancel-agent-run.controller';
import { CancelAgentRunHandler } from './cancel-agent-run/cancel-agent-run.handler';
import { StreamAgentRunController } from './stream-agent-run/stream-agent-run.controller';
import { CreateAgentController } from './create-agent/create-agent.controller';
import { CreateAgentHandler } from './create-agent/create-agent.handler';
import { AgentQueriesController } from './queries/agent-queries.controller';
import { GetAgentHandler, GetAgentRunHandler, ListAgentRunsHandler, ListAgentsHandler } from './queries/agent.queries';
import { AgentsProjection } from './queries/agents.projection';
import { AgentsReadModel } from './queries/agents.read-model';
import { RunAgentController } from './run-agent/run-agent.controller';
import { RunAgentHandler } from './run-agent/run-agent.handler';

@Module({
  controllers: [
    CreateAgentController,
    RunAgentController,
    CancelAgentRunController,
    StreamAgentRunController,
    AgentQueriesController,
  ],
  providers: [
    CreateAgentHandler,
    RunAgentHandler,
    CancelAgentRunHandler,
    ListAgentsHandler,
    GetAgentHandler,
    ListAgentRunsHandler,
    GetAgentRunHandler,
    AgentsReadModel,
    AgentsProjection,
  ],
  exports: [AgentsReadModel],
})
export class AgentsModule {}

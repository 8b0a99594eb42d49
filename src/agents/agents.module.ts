import { Module } from '@nestjs/common';
import { PreferWait } from '../http/prefer-wait';
import { SseStreams } from '../http/sse-streams';
import { AgentDirectory } from './agent-directory.port';
import { AgentTrials } from './agent-trials.port';
import { AgentTrialChecks } from './agent-trial';
import { AgentRuns } from './agent-runs.port';
import { AgentNameClaims } from './agent-name-claims';
import { ArchiveAgentController } from './archive-agent/archive-agent.controller';
import { ArchiveAgentHandler } from './archive-agent/archive-agent.handler';
import { CancelAgentRunController } from './cancel-agent-run/cancel-agent-run.controller';
import { CancelAgentRunHandler } from './cancel-agent-run/cancel-agent-run.handler';
import { StreamAgentRunController } from './stream-agent-run/stream-agent-run.controller';
import { DecideApprovalsController } from './decide-approvals/decide-approvals.controller';
import { DecideApprovalsHandler } from './decide-approvals/decide-approvals.handler';
import { CreateAgentController } from './create-agent/create-agent.controller';
import { CreateAgentHandler } from './create-agent/create-agent.handler';
import { AgentQueriesController } from './queries/agent-queries.controller';
import { GetAgentHandler, GetAgentRunHandler, ListAgentRunsHandler, ListAgentsHandler } from './queries/agent.queries';
import { GetAgentVersionHandler } from './queries/agent-version.queries';
import { AgentsProjection } from './queries/agents.projection';
import { AgentsReadModel } from './queries/agents.read-model';
import { RunAgentController } from './run-agent/run-agent.controller';
import { ReplayAgentRunController } from './replay-agent-run/replay-agent-run.controller';
import { ReplayAgentRunHandler } from './replay-agent-run/replay-agent-run.handler';
import { RunAgentHandler } from './run-agent/run-agent.handler';
import { RunAnswers } from './run-agent/run-answer';
import { RunsQueuedHere } from '../execution/agent-runs/runs-queued-here';
import { UpdateAgentController } from './update-agent/update-agent.controller';
import { UpdateAgentHandler } from './update-agent/update-agent.handler';

@Module({
  controllers: [
    CreateAgentController,
    UpdateAgentController,
    ArchiveAgentController,
    RunAgentController,
    ReplayAgentRunController,
    CancelAgentRunController,
    DecideApprovalsController,
    StreamAgentRunController,
    AgentQueriesController,
  ],
  providers: [
    CreateAgentHandler,
    UpdateAgentHandler,
    ArchiveAgentHandler,
    AgentNameClaims,
    RunAgentHandler,
    ReplayAgentRunHandler,
    CancelAgentRunHandler,
    DecideApprovalsHandler,
    ListAgentsHandler,
    GetAgentHandler,
    GetAgentVersionHandler,
    ListAgentRunsHandler,
    GetAgentRunHandler,
    AgentsReadModel,
    { provide: AgentDirectory, useExisting: AgentsReadModel },
    { provide: AgentTrials, useClass: AgentTrialChecks },
    AgentsProjection,
    RunsQueuedHere,
    RunAnswers,
    { provide: AgentRuns, useExisting: RunAnswers },
    PreferWait,
    SseStreams,
  ],
  exports: [AgentsReadModel, AgentDirectory, AgentTrials, AgentRuns, RunsQueuedHere],
})
export class AgentsModule {}

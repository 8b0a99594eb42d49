import { Injectable } from '@nestjs/common';
import { AgentRun, agentRunStream } from '../agents/agent-run';
import { AgentsReadModel } from '../agents/queries/agents.read-model';
import { isEnded } from '../domain/run';
import { StreamWatch } from '../read-models/stream-watch';
import { WorkflowsReadModel } from '../workflows/queries/workflows.read-model';
import { WorkflowRun, workflowRunStream } from '../workflows/workflow-run';

export interface Waited<Run> {
  run: Run;
  ended: boolean;
}

/** Waits, bounded, for a run to end as the read models show it (`Prefer: wait`, cancel). */
@Injectable()
export class RunEndings {
  constructor(
    private readonly watch: StreamWatch,
    private readonly agents: AgentsReadModel,
    private readonly workflows: WorkflowsReadModel,
  ) {}

  async agentRun(run: AgentRun, timeoutMs: number): Promise<Waited<AgentRun>> {
    const current = () => this.agents.getRun(run.agentId, run.id) ?? run;
    const ended = await this.watch.until(agentRunStream(run.id), () => isEnded(current().status), timeoutMs);
    return { run: current(), ended };
  }

  async workflowRun(run: WorkflowRun, timeoutMs: number): Promise<Waited<WorkflowRun>> {
    const current = () => this.workflows.getRun(run.workflowId, run.id) ?? run;
    const ended = await this.watch.until(workflowRunStream(run.id), () => isEnded(current().status), timeoutMs);
    return { run: current(), ended };
  }
}

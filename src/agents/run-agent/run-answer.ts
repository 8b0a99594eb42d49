import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ValidationFailed } from '../../shared/validation-failed';
import { PreferWait } from '../../http/prefer-wait';
import { TraceContext, withTrace } from '../../shared/trace-context';
import { AgentRun, SupersededBy } from '../agent-run/agent-run.state';
import { agentRunDecider } from '../agent-run/agent-run';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { agentRunStream } from '../agent-run/agent-run.events';
import { AgentRuns, RunPlace, RunTaskDto } from '../agent-runs.port';
import { outputSchemaErrors } from '../create-agent/agent-definition';
import { AgentsReadModel } from '../queries/agents.read-model';
import { ThreadTurns } from '../thread-turns.port';
import { StreamWatch } from '../../live/stream-watch';
import { RunAgentCommand } from './run-agent.command';

/**
 * The run routes' answers (a run, a thread's turn, a replay): PreferWait's, with a run on a thread answered once its
 * turn is in the thread's messages, and a run that waits for a person answered at once.
 */
@Injectable()
export class RunAnswers implements AgentRuns {
  constructor(
    private readonly commands: CommandBus,
    private readonly wait: PreferWait,
    private readonly runs: AgentsReadModel,
    private readonly turns: ThreadTurns,
    private readonly watch: StreamWatch,
    private readonly actors: ActorRegistry,
  ) {}

  async supersede(runIds: string[], supersededBy: SupersededBy): Promise<void> {
    const context = { correlationId: supersededBy.runId, causationId: supersededBy.runId };
    for (const runId of runIds) {
      try {
        await this.actors
          .of(agentRunStream(runId), agentRunDecider)
          .send({ type: 'CancelAgentRun', supersededBy }, context);
      } catch (error) {
        // It has ended meanwhile (a success stays in the thread).
        if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      }
    }
  }

  async queue(task: RunTaskDto, on: () => RunPlace, trace?: TraceContext): Promise<AgentRun> {
    const errors = await outputSchemaErrors(task.outputSchema);
    if (errors.length) throw new ValidationFailed(errors);
    const { agentId, threadId, startAgentId, source, multitask } = on();
    const command = new RunAgentCommand(agentId, task.task, task.context, task.outputSchema, threadId);
    command.startAgentId = startAgentId;
    command.source = source;
    command.multitask = multitask;
    return this.commands.execute(withTrace(command, trace));
  }

  answer(queued: AgentRun, prefer: string | undefined, reply: FastifyReply): Promise<AgentRun> {
    return this.wait.answer(queued, prefer, reply, {
      location: `/v1/agents/${queued.agentId}/runs/${queued.id}`,
      ...this.waitFor(queued),
      settled: (run) => this.turns.recorded(run),
    });
  }

  async settled(queued: AgentRun, timeoutMs: number): Promise<AgentRun> {
    const { stream, current, orWaiting, alsoOn } = this.waitFor(queued);
    const { run } = await this.watch.runEnding(stream, current, timeoutMs, orWaiting, alsoOn);
    await this.turns.recorded(run);
    return run;
  }

  private waitFor(queued: AgentRun) {
    return {
      stream: agentRunStream(queued.id),
      current: () => this.runs.getRun(queued.agentId, queued.id) ?? queued,
      // A run waiting only for its children goes on by itself: the answer waits for its end, unless a run below it
      // (whose approvals the run shows as its own) comes to wait for a person.
      orWaiting: (run: AgentRun) => run.pendingApprovals.length > 0,
      alsoOn: ['AgentRunApprovalRequested'],
    };
  }
}

import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { Agent, agentDecider, agentStream } from '../agent';
import { AgentRun } from '../agent-run/agent-run.state';
import { QueueAgentRun } from '../agent-run/agent-run.commands';
import { agentRunDecider, runQueuedBy } from '../agent-run/agent-run';
import { agentRunStream } from '../agent-run/agent-run.events';
import { toAgentRun } from '../agent-run/agent-run.view';
import { RunAgentCommand } from './run-agent.command';
import { LocalSlot, RunsQueuedHere } from '../../execution/agent-runs/runs-queued-here';
import { ThreadTurns } from '../thread-turns.port';
import { traceOf, traceparentOf } from '../../shared/trace-context';

@CommandHandler(RunAgentCommand)
export class RunAgentHandler implements ICommandHandler<RunAgentCommand, AgentRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly queuedHere: RunsQueuedHere,
    private readonly turns: ThreadTurns,
  ) {}

  async execute(command: RunAgentCommand): Promise<AgentRun> {
    const { agentId, task, context, outputSchema, threadId, replayOf } = command;
    const agent = await this.actors.of(agentStream(agentId), agentDecider).read();
    if (!agent) throw new DomainError('not_found', `Agent ${agentId} does not exist`);
    if (agent.status === 'archived') throw new DomainError('conflict', `Agent ${agentId} is archived`);
    if (threadId) await this.turns.checkTurn(threadId, agentId);
    const starting = threadId ? await this.startAgentOf(threadId, agentId, command.startAgentId) : undefined;
    const startAgentId = starting?.id;
    const id = this.ids.newId('agentrun');
    // With a free slot of the local executor, the run is queued and claimed in one commit; a thread's runs wait
    // their turn. The local executor may start it (or has started it) while the read models catch up.
    const traceparent = traceparentOf(traceOf(command));
    const queueing = (start?: LocalSlot['start']): QueueAgentRun => ({
      type: 'QueueAgentRun',
      id,
      agentId,
      model: agent.model,
      agentVersion: agent.version,
      task,
      context,
      ...(outputSchema && { outputSchema }),
      ...(threadId && { threadId }),
      ...(replayOf && { replayOf }),
      ...(startAgentId && { startAgentId }),
      ...(command.source && { source: command.source }),
      ...(command.multitask && { multitask: command.multitask }),
      ...(start && { start }),
      // The input is checked by the guardrails of the agent that reads it first.
      inputChecks: (starting ?? agent).guardrails?.input,
    });
    const decided = (start: LocalSlot['start']) => runQueuedBy(queueing(start), new Date());
    const queued = await this.queuedHere.queue({ id, agent, traceparent, mayStart: !threadId, decided }, (start) =>
      this.actors.send(
        agentRunStream(id),
        agentRunDecider,
        queueing(start),
        { correlationId: id, causationId: agentId, trace: traceOf(command) },
        { newStream: true },
      ),
    );
    await this.readYourWrites.waitFor(queued.position);
    return toAgentRun(queued.state!);
  }

  /**
   * The agent a thread's turn begins with, when not the thread's: the one asked for (which must be active), else
   * the one that answered the thread's last turn (after a handoff), if it is still active.
   */
  private async startAgentOf(threadId: string, agentId: string, asked?: string): Promise<Agent | undefined> {
    if (asked) {
      const agent = await this.actors.of(agentStream(asked), agentDecider).read();
      if (!agent || agent.status === 'archived') {
        const message = `is not an active agent (${agent ? 'archived' : 'no such agent'})`;
        throw new DomainError('unprocessable', `Agent ${asked} cannot take the turn`, [{ path: 'agentId', message }]);
      }
      return asked === agentId ? undefined : agent;
    }
    const lastRunId = this.turns.lastRunId(threadId);
    const last = lastRunId && (await this.actors.of(agentRunStream(lastRunId), agentRunDecider).read());
    const answeredBy = last ? last.answeredBy : null;
    if (!answeredBy || answeredBy === agentId) return undefined;
    const agent = await this.actors.of(agentStream(answeredBy), agentDecider).read();
    return agent?.status === 'active' ? agent : undefined;
  }
}

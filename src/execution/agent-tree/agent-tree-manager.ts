import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { AGENT_RUN_ENDINGS, AgentRunChildRunsStarted, agentRunStream } from '../../agents/agent-run/agent-run.events';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { isEnded } from '../../domain/run';
import { RecordedEvent } from '../../event-store/event-store';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { ChildRuns, RunEnding } from './child-runs';

/**
 * The process manager of trees of runs, over events: children a parent started are queued; a child's end is told
 * to its parent; a parent that ended before its children cancels them. The instance that executes a run does each
 * at once (ChildRuns); this follows the log from its own checkpoint to do what a crash left undone, on any
 * instance. Every step is idempotent, so handling an event twice, or on two instances, changes nothing.
 */
@Injectable()
export class AgentTreeManager extends ProcessManager {
  protected readonly name = 'agent-tree-manager';
  protected override readonly follows = { filter: { eventTypes: ['AgentRunChildRunsStarted', ...AGENT_RUN_ENDINGS] } };
  /** Most runs are in no tree: their endings cost no write each (a restart reads a second of the log again). */
  protected override readonly checkpointEveryMs = 1000;

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly children: ChildRuns,
    private readonly runs: AgentsReadModel,
  ) {
    super(deps, config.runs.executorEnabled);
  }

  protected override async handle(events: RecordedEvent[]): Promise<void> {
    await Promise.all(events.map((event) => this.handleEvent(event)));
  }

  private async handleEvent(event: RecordedEvent): Promise<void> {
    const what = `Handling ${event.type} of run ${String(event.data.runId)} at ${event.position}`;
    try {
      // Done at once by this instance: nothing is left to do.
      if (await this.children.handledHere(event)) return;
      if (event.type === 'AgentRunChildRunsStarted') {
        await this.persistently(() => this.queueChildren(event.data as AgentRunChildRunsStarted['data']), what);
        return;
      }
      const ending = event as unknown as RunEnding;
      if (!ending.data.parentRunId && !ending.data.openChildren?.length) return;
      await this.persistently(() => this.children.ended(ending), what);
    } catch (error) {
      if (this.stopping) throw error;
      // A refusal of the domain means the event has nothing left to do.
      this.logger.debug(`${what}: ${String(error)}`);
    }
  }

  /** The children not queued yet (their parent's instance stopped first), while the parent still waits for them. */
  private async queueChildren({ runId, children }: AgentRunChildRunsStarted['data']): Promise<void> {
    const missing = children.filter((child) => !this.runs.getRunAggregate(child.runId));
    if (!missing.length) return;
    const parent = await this.actors.of(agentRunStream(runId), agentRunDecider).read();
    if (!parent || isEnded(parent.status)) return;
    await this.children.queue(parent, missing);
  }
}

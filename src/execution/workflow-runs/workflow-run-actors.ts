import { LRUCache } from 'lru-cache';
import { Actor, CommandContext } from '../../actors/actor';
import { ActorRegistry } from '../../actors/actor-registry';
import { isEnded } from '../../domain/run';
import { RecordedEvent } from '../../event-store/event-store';
import { WorkflowRunCommand } from '../../workflows/workflow-run/workflow-run.commands';
import { WorkflowRunEvent, workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';
import { WorkflowRunState } from '../../workflows/workflow-run/workflow-run.state';
import { workflowRunDecider } from '../../workflows/workflow-run/workflow-run';

/** How many runs' actors are kept between their events, at most. */
const MOST_KEPT = 32;

type RunActor = Actor<WorkflowRunState, WorkflowRunCommand, WorkflowRunEvent>;

/**
 * The actors of the workflow runs being worked on here, kept from one of a run's events to the next. The shared
 * actor cache keeps no run's actor (its state holds the run's input, which may be as large as a body), so without
 * these each read or command would read the whole stream again and parse the input once more. With them, it
 * reads only what the stream gained since. At most MOST_KEPT are kept, the least recently used dropped first, and
 * a run's actor is dropped once a read finds the run ended.
 */
export class WorkflowRunActors {
  private readonly kept = new LRUCache<string, RunActor>({ max: MOST_KEPT });

  constructor(private readonly actors: ActorRegistry) {}

  /** The run's current state (undefined: its stream has no events yet). */
  async read(runId: string): Promise<WorkflowRunState> {
    const run = await this.actorOf(runId).read();
    if (!run || isEnded(run.status)) this.kept.delete(runId);
    return run;
  }

  /**
   * Takes a run's state from the first event of its stream, as handed over by a subscription, so that the next
   * read does not read back and parse that event (and the input it holds) once more. Ignored for a later event,
   * and by an actor already in memory; should the stream hold more, the next read or append catches up.
   */
  adoptOpening(runId: string, event: RecordedEvent): void {
    if (event.revision !== 0n) return;
    const opened = { type: event.type, data: event.data } as WorkflowRunEvent;
    this.actorOf(runId).adopt(workflowRunDecider.evolve(workflowRunDecider.initialState, opened), 0n);
  }

  /** A command to the run (a refusal of the domain throws). */
  send(runId: string, command: WorkflowRunCommand, context: CommandContext) {
    return this.actorOf(runId).send(command, context);
  }

  private actorOf(runId: string): RunActor {
    let actor = this.kept.get(runId);
    if (!actor) {
      actor = this.actors.of(workflowRunStream(runId), workflowRunDecider);
      this.kept.set(runId, actor);
    }
    return actor;
  }
}

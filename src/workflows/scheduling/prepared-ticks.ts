import { Injectable } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { BatchCommand } from '../../actors/batch-sender';
import { PreparedBatch } from '../../actors/prepared-batch';
import { isoTime } from '../../shared/clock';
import { IdGenerator } from '../../shared/ids';
import { openingCommand } from '../trigger-workflow/workflow-run-opener';
import { runsQueuedBy } from '../trigger-workflow/workflow-triggers';
import { WorkflowCommand } from '../workflow/workflow.commands';
import { WorkflowEvent, workflowStream } from '../workflow/workflow.events';
import { WorkflowState } from '../workflow/workflow.state';
import { workflowDecider } from '../workflow/workflow';
import { ScheduledTick } from './trigger-scheduled-runs.command';

/** A trigger's runs open in its commit where the store can (see WorkflowTriggers). */
export const opensRuns = (events: WorkflowEvent[]) => runsQueuedBy(events).map(openingCommand);

/** The command that records a tick's run. */
export function scheduledTrigger({ workflowId, scheduledFor }: ScheduledTick, ids: IdGenerator) {
  const runId = ids.newId('wfrun');
  const trigger = { type: 'schedule' as const, scheduledFor: isoTime(scheduledFor) };
  const command: BatchCommand<WorkflowCommand> = {
    stream: workflowStream(workflowId),
    command: { type: 'TriggerWorkflow', workflowId, runId, input: {}, trigger },
    context: { correlationId: runId, causationId: workflowId },
  };
  return command;
}

type TriggerBatch = PreparedBatch<WorkflowState, WorkflowCommand, WorkflowEvent>;

/** The ticks of one coming instant that have been prepared, each in the batch that holds it. */
interface Round {
  at: number;
  prepared: Map<string, { batch: TriggerBatch; index: number }>;
}

/** What `take` found: prepared batches with the ticks wanted of each, and the ticks left to decide now. */
export interface TakenTicks {
  prepared: Array<{ batch: TriggerBatch; wanted: number[] }>;
  rest: ScheduledTick[];
}

/**
 * The triggers of the next instant's ticks, decided and encoded before it (see ActorRegistry.prepareBatch). The
 * scheduler prepares them in the idle time ahead, in rounds: a workflow scheduled or changed after a round is
 * prepared in the next one. At the tick, TriggerScheduledRunsHandler takes the prepared ones; each is committed
 * as it was prepared only if its workflow has not moved on since, and decided again otherwise.
 */
@Injectable()
export class PreparedTicks {
  private round?: Round;
  /** Rounds run one after the other: a workflow is prepared once per instant. */
  private preparing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
  ) {}

  /** Prepares those of `ticks` (all due at `at`) not prepared yet; answers how many it prepared. */
  prepare(ticks: ScheduledTick[], at: Date): Promise<number> {
    const round = this.roundAt(+at);
    const prepared = this.preparing.then(async () => {
      const fresh = ticks.filter((tick) => !round.prepared.has(tick.workflowId));
      if (!fresh.length || this.round !== round) return 0;
      const commands = fresh.map((tick) => scheduledTrigger(tick, this.ids));
      const batch = await this.actors.prepareBatch(workflowDecider, commands, { opens: opensRuns }, at);
      fresh.forEach((tick, index) => round.prepared.set(tick.workflowId, { batch, index }));
      return batch.ready.length;
    });
    this.preparing = prepared.catch(() => undefined);
    return prepared;
  }

  /** The workflow changed: its tick is prepared again in the next round (the one prepared stays unused). */
  forget(workflowId: string): void {
    this.round?.prepared.delete(workflowId);
  }

  /** Whether the tick of `workflowId` at `at` is prepared (for tests and the scheduler's rounds). */
  has(workflowId: string, at: Date): boolean {
    return this.round?.at === +at && this.round.prepared.has(workflowId);
  }

  /** Takes the prepared triggers of `ticks`; a round not used at its instant is dropped. */
  take(ticks: ScheduledTick[]): TakenTicks {
    const round = this.round;
    const rest: ScheduledTick[] = [];
    const byBatch = new Map<TriggerBatch, number[]>();
    for (const tick of ticks) {
      const found = round && +tick.scheduledFor === round.at ? round.prepared.get(tick.workflowId) : undefined;
      if (!found) {
        rest.push(tick);
        continue;
      }
      let wanted = byBatch.get(found.batch);
      if (!wanted) byBatch.set(found.batch, (wanted = []));
      wanted.push(found.index);
    }
    if (round && ticks.some((tick) => +tick.scheduledFor >= round.at)) this.round = undefined;
    return { prepared: [...byBatch].map(([batch, wanted]) => ({ batch, wanted })), rest };
  }

  private roundAt(at: number): Round {
    if (this.round?.at !== at) this.round = { at, prepared: new Map() };
    return this.round;
  }
}

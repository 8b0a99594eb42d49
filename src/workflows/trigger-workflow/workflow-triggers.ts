import { Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { CommandContext } from '../../actors/actor';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { ParentRun, ReplayOf, RunTrigger } from '../workflow/workflow.state';
import { WorkflowEvent, WorkflowTriggered, workflowStream } from '../workflow/workflow.events';
import { workflowDecider } from '../workflow/workflow';
import { QueuedRun, queuedRunOf } from '../workflow-run/queued-run';
import { WorkflowRun, WorkflowRunAggregate } from '../workflow-run/workflow-run.state';
import { toWorkflowRun } from '../workflow-run/workflow-run.view';
import { workflowRunDecider } from '../workflow-run/workflow-run';
import { WorkflowRunOpener, openingCommand } from './workflow-run-opener';
import { TraceContext } from '../../shared/trace-context';
import { RunSource } from '../../domain/run';

/** A replay and the version it runs; the protocol session it came from; a child run's id and its parent. */
export interface TriggerOptions {
  replay?: { replayOf: ReplayOf; workflowVersion: number };
  source?: RunSource;
  runId?: string;
  parent?: ParentRun;
}

/**
 * Records the trigger on the workflow (which moves `lastRun` and, for schedules, refuses a tick twice); the
 * trigger alone makes the run. Where the store can, the run's own stream is opened in the same commit; otherwise
 * (EventStoreDB) it is opened afterwards (see WorkflowRunOpener, whose sweep also covers a crash in between).
 */
@Injectable()
export class WorkflowTriggers {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly runs: WorkflowRunOpener,
  ) {}

  private readonly logger = new Logger(WorkflowTriggers.name);

  /**
   * The run, queued; a refusal of the workflow (unknown, archived, a tick recorded before) throws. Undefined: a
   * schedule tick its overlap policy skipped or kept for later.
   */
  trigger(
    workflowId: string,
    input: Record<string, unknown>,
    trigger: RunTrigger,
    { replay, source, runId = this.ids.newId('wfrun'), parent }: TriggerOptions = {},
    trace?: TraceContext,
  ): Promise<WorkflowRun | undefined> {
    const context = { correlationId: runId, causationId: workflowId, trace };
    const sent = this.actors.send(
      workflowStream(workflowId),
      workflowDecider,
      {
        type: 'TriggerWorkflow',
        workflowId,
        runId,
        input,
        trigger,
        ...(replay && { replay }),
        ...(source && { source }),
        ...(parent && { parent }),
      },
      context,
      { opens: (events) => runsQueuedBy(events).map(openingCommand) },
    );
    return sent.then(async ({ opened, ...result }) => {
      // A schedule tick that overlaps a run may be skipped or kept for later (see run-slots.ts): no run.
      if (!runsQueuedBy(result.events).length) return undefined;
      if (!opened) return this.openAfter(queuedBy(result.events), result.position, context);
      // A schedule tick has no client waiting for the lists.
      if (trigger.type !== 'schedule') await this.readYourWrites.waitFor(opened[0].position);
      return toWorkflowRun(opened[0].state as WorkflowRunAggregate);
    });
  }

  /**
   * A backfill of the schedule's `ticks` (see BackfillWorkflow), recorded in one commit with the runs it starts
   * where the store can; elsewhere their streams are opened next, in the background. The events it recorded.
   */
  async backfill(workflowId: string, ticks: string[], trace?: TraceContext): Promise<WorkflowEvent[]> {
    const command = {
      type: 'BackfillWorkflow' as const,
      workflowId,
      ticks: ticks.map((scheduledFor) => ({ scheduledFor, runId: this.ids.newId('wfrun') })),
    };
    const context = { correlationId: workflowId, causationId: workflowId, trace };
    const opens = (events: WorkflowEvent[]) => runsQueuedBy(events).map(openingCommand);
    const { opened, events, position } = await this.actors.send(
      workflowStream(workflowId),
      workflowDecider,
      command,
      context,
      { opens },
    );
    if (!opened) for (const run of runsQueuedBy(events)) this.runs.openSoon(run, context);
    await this.readYourWrites.waitFor(opened?.length ? opened[opened.length - 1].position : position);
    return events;
  }

  /** The trigger is durable now, and with it the run: its stream is opened in a second step. */
  private async openAfter(queued: QueuedRun, position: bigint | undefined, context: CommandContext) {
    const run = asRun(queued);
    // A schedule tick has no client waiting for the run: its stream is opened after the tick's other triggers.
    if (run.trigger.type === 'schedule') {
      this.runs.openSoon(queued, context);
      return run;
    }
    // Should opening the stream fail, the opener's sweep does it later, so the answer stays a 202 (a retry
    // would only start a second run).
    const opened = await this.runs.open(queued, context).catch((error: unknown) => {
      this.logger.warn(`Run ${run.id} is recorded; its stream will be opened later: ${String(error)}`);
      return undefined;
    });
    await this.readYourWrites.waitFor(opened?.position ?? position);
    return opened?.state ? toWorkflowRun(opened.state) : run;
  }
}

/** The run the trigger decided records. */
function queuedBy(events: WorkflowEvent[]): QueuedRun {
  return runsQueuedBy(events)[0];
}

/** The runs that events record (a trigger, or a release that starts a buffered tick). */
export function runsQueuedBy(events: WorkflowEvent[]): QueuedRun[] {
  return events
    .filter((event): event is WorkflowTriggered => event.type === 'WorkflowTriggered')
    .map((event) => queuedRunOf(event.data));
}

/** The run as it stands once queued. */
function asRun(queued: QueuedRun): WorkflowRun {
  return toWorkflowRun(workflowRunDecider.evolve(null, { type: 'WorkflowRunQueued', data: queued })!);
}

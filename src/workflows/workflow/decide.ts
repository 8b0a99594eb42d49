import { DomainError } from '../../domain/decider';
import { Preconditions, checkBaseVersion, checkIfMatch } from '../../domain/definition';
import { admittedAfter, anyGoing, isCounted, released } from '../../domain/run-slots';
import { isoTime } from '../../shared/clock';
import { ArchiveWorkflow, BackfillWorkflow, ReleaseWorkflowRun, WorkflowCommand } from './workflow.commands';
import { evolveWorkflow } from './evolve';
import { WorkflowEvent } from './workflow.events';
import { WorkflowAggregate, WorkflowState } from './workflow.state';
import { isAfter } from './instants';
import { renderStepTask } from '../step-task';

/** The events a command records on a workflow. */
export function decideWorkflow(state: WorkflowState, command: WorkflowCommand, now: Date): WorkflowEvent[] {
  if (command.type === 'CreateWorkflow') {
    if (state) throw new DomainError('conflict', `Workflow ${command.id} already exists`);
    const { type: _type, overlap, maxConcurrentRuns, concurrency, ...workflow } = command;
    // The policy is recorded only when it is not the default.
    const policy = {
      ...(overlap && overlap !== 'allow' && { overlap }),
      ...(typeof maxConcurrentRuns === 'number' && { maxConcurrentRuns }),
      ...(concurrency && { concurrency }),
    };
    return [{ type: 'WorkflowCreated', data: { ...workflow, ...policy, createdAt: now.toISOString() } }];
  }
  if (!state) throw new DomainError('not_found', `Workflow ${command.workflowId} does not exist`);
  const { workflowId } = command;
  if (command.type === 'ReleaseWorkflowRun') return release(state, command, now);
  if (command.type === 'ArchiveWorkflow') return archive(state, command, now);
  checkIfMatch('Workflow', workflowId, state, command as Preconditions);
  if (state.status === 'archived') throw new DomainError('conflict', `Workflow ${workflowId} is archived`);
  switch (command.type) {
    case 'TriggerWorkflow': {
      const { runId, input, trigger, replay, source, parent } = command;
      if (trigger.type === 'schedule') {
        checkTick(state, trigger.scheduledFor);
        const overlapping = overlapOf(state, trigger.scheduledFor, now);
        if (overlapping) return [overlapping];
      }
      const workflowVersion = replay?.workflowVersion ?? state.version;
      const data = {
        workflowId,
        runId,
        input,
        trigger,
        workflowVersion,
        triggeredAt: isoTime(now),
        ...(replay && { replayOf: replay.replayOf }),
        ...(source && { source }),
        ...(parent && { parent }),
        ...keyOf(state, input),
      };
      return [{ type: 'WorkflowTriggered', data }];
    }
    case 'BackfillWorkflow':
      return backfill(state, command, now);
    case 'UpdateWorkflow': {
      checkBaseVersion('Workflow', workflowId, state, command.baseVersion);
      if (Object.keys(command.changes).length === 0) return [];
      const data = { workflowId, changes: command.changes, version: state.version + 1, updatedAt: now.toISOString() };
      return [{ type: 'WorkflowUpdated', data }];
    }
    case 'SkipScheduledRuns': {
      const { first, last, count } = command;
      if (Date.parse(last) < Date.parse(first)) throw new DomainError('unprocessable', 'last is before first');
      checkTick(state, first);
      return [{ type: 'ScheduledRunsSkipped', data: { workflowId, first, last, count, skippedAt: now.toISOString() } }];
    }
    case 'PauseWorkflow':
      if (state.status === 'paused') return [];
      return [{ type: 'WorkflowPaused', data: { workflowId, pausedAt: now.toISOString() } }];
    case 'ResumeWorkflow':
      if (state.status === 'active') return [];
      return [{ type: 'WorkflowResumed', data: { workflowId, resumedAt: now.toISOString() } }];
  }
}

/**
 * A tick while a counted run is going: under `skip` it is recorded as skipped, under `buffer_one` kept (replacing an
 * older kept one) to run when the runs end. Undefined: it runs.
 */
function overlapOf(state: WorkflowAggregate, scheduledFor: string, now: Date): WorkflowEvent | undefined {
  const { id: workflowId, runs } = state;
  if (!anyGoing(runs)) return undefined;
  if (state.overlap === 'skip') {
    const runIds = [...runs!.open, ...runs!.held];
    const data = { workflowId, scheduledFor, reason: 'overlap' as const, runIds, skippedAt: now.toISOString() };
    return { type: 'ScheduledTickSkipped', data };
  }
  if (state.overlap === 'buffer_one') {
    const data = { workflowId, scheduledFor, replaces: runs!.bufferedTick, bufferedAt: now.toISOString() };
    return { type: 'ScheduledTickBuffered', data };
  }
  return undefined;
}

/**
 * A backfill's ticks, in order, each decided as a schedule tick is (the overlap policy, the slots) on the state the
 * ticks before it left: under `skip` the ticks after the first that runs are skipped while it goes, under
 * `buffer_one` the newest is kept. They may be older than the schedule's last tick, or than the workflow itself.
 */
function backfill(state: WorkflowAggregate, { workflowId, ticks }: BackfillWorkflow, now: Date): WorkflowEvent[] {
  if (state.trigger.type !== 'schedule') throw new DomainError('conflict', `Workflow ${workflowId} has no schedule`);
  const events: WorkflowEvent[] = [];
  let current = state;
  for (const { scheduledFor, runId } of ticks) {
    let event = overlapOf(current, scheduledFor, now);
    // A tick kept from the schedule itself is newer than any of the backfill's: it stays, and this one is skipped.
    const kept = current.runs?.bufferedTick;
    if (event?.type === 'ScheduledTickBuffered' && kept && isAfter(kept, scheduledFor)) {
      const runIds = [...current.runs!.open, ...current.runs!.held];
      event = {
        type: 'ScheduledTickSkipped',
        data: { workflowId, scheduledFor, reason: 'overlap', runIds, skippedAt: isoTime(now) },
      };
    }
    event ??= {
      type: 'WorkflowTriggered',
      data: {
        workflowId,
        runId,
        input: {},
        trigger: { type: 'schedule', scheduledFor, backfill: true },
        workflowVersion: current.version,
        triggeredAt: isoTime(now),
        ...keyOf(current, {}),
      },
    };
    events.push(event);
    current = evolveWorkflow(current, event) as WorkflowAggregate;
  }
  return events;
}

/**
 * A counted run ended (whatever the workflow's status): the runs waiting for its slot are admitted, and once no
 * run is going a buffered tick starts as a new run (only while the workflow is active).
 */
function release(state: WorkflowAggregate, command: ReleaseWorkflowRun, now: Date): WorkflowEvent[] {
  const { workflowId, runId, nextRunId } = command;
  if (!isCounted(state.runs, runId)) return [];
  const slots = state.runs!;
  const admitted = admittedAfter(slots, state, runId);
  const at = now.toISOString();
  const events: WorkflowEvent[] = [
    { type: 'WorkflowRunReleased', data: { workflowId, runId, admitted, releasedAt: at } },
  ];
  const after = released(slots, runId, admitted);
  if (!anyGoing(after) && after.bufferedTick && state.status === 'active' && state.trigger.type === 'schedule') {
    const trigger = { type: 'schedule' as const, scheduledFor: after.bufferedTick };
    const data = { workflowId, runId: nextRunId, input: {}, trigger, workflowVersion: state.version, triggeredAt: at };
    events.push({ type: 'WorkflowTriggered', data: { ...data, ...keyOf(state, {}) } });
  }
  return events;
}

/** The most characters a concurrency key keeps once filled in; a longer one is cut there. */
const KEY_LENGTH = 200;

/** A run's concurrency key, its template filled in from the input (a path that leads nowhere gives ""). */
function keyOf(state: WorkflowAggregate, input: Record<string, unknown>): { concurrencyKey?: string } {
  if (!state.concurrency) return {};
  const text = renderStepTask(state.concurrency.key, { input, outputs: [] }, KEY_LENGTH * 10) ?? '';
  return { concurrencyKey: text.slice(0, KEY_LENGTH) };
}

/** Archiving again changes nothing, whatever version the client last saw. */
function archive(state: WorkflowAggregate, command: ArchiveWorkflow, now: Date): WorkflowEvent[] {
  if (state.status === 'archived') return [];
  checkIfMatch('Workflow', command.workflowId, state, command);
  const data = { workflowId: command.workflowId, version: state.version + 1, archivedAt: now.toISOString() };
  return [{ type: 'WorkflowArchived', data }];
}

/**
 * A schedule tick is accepted once: ticks only move forward, so remembering the latest one is enough, and
 * any number of schedulers sending the same tick produce one run.
 */
function checkTick(state: WorkflowAggregate, scheduledFor: string): void {
  const id = state.id;
  if (state.trigger.type !== 'schedule') throw new DomainError('conflict', `Workflow ${id} has no schedule`);
  if (state.status === 'paused') throw new DomainError('conflict', `Workflow ${id} is paused`);
  if (state.lastScheduledFor !== null && !isAfter(scheduledFor, state.lastScheduledFor)) {
    throw new DomainError('conflict', `Workflow ${id} has already recorded its tick of ${state.lastScheduledFor}`);
  }
  if (!isAfter(scheduledFor, state.activeSince)) {
    throw new DomainError('conflict', `Workflow ${id} was not active at ${scheduledFor}`);
  }
}

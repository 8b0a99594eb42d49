import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { isoTime } from '../../shared/clock';
import { Clock } from '../../shared/clock';
import { traceOf } from '../../shared/trace-context';
import { cronSchedule } from '../scheduling/cron-schedule';
import { WorkflowTriggers } from '../trigger-workflow/workflow-triggers';
import { workflowStream } from '../workflow/workflow.events';
import { workflowDecider } from '../workflow/workflow';
import { BackfillWorkflowCommand } from './backfill-workflow.command';
import { Backfill, MAX_BACKFILL_TICKS, backfillTicks } from './backfill';

/**
 * Runs the ticks a schedule had in a window of the past, as Temporal's schedule backfill does: the ticks are
 * found from the workflow's cron and time zone, then decided together on the workflow, in one commit, each as a
 * schedule tick is (see BackfillWorkflow in decide.ts).
 */
@CommandHandler(BackfillWorkflowCommand)
export class BackfillWorkflowHandler implements ICommandHandler<BackfillWorkflowCommand, Backfill> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly triggers: WorkflowTriggers,
    private readonly clock: Clock,
  ) {}

  async execute(command: BackfillWorkflowCommand): Promise<Backfill> {
    const { workflowId, from, to } = command;
    if (+to <= +from) throw unprocessable('to', 'must be after from');
    if (+to > +this.clock.now())
      throw unprocessable('to', 'must not be after now: the schedule runs the ticks to come');
    const workflow = await this.actors.of(workflowStream(workflowId), workflowDecider).read();
    if (!workflow) throw new DomainError('not_found', `Workflow ${workflowId} does not exist`);
    if (workflow.trigger.type !== 'schedule')
      throw new DomainError('conflict', `Workflow ${workflowId} has no schedule`);
    const schedule = cronSchedule(workflow.trigger.cron, workflow.trigger.timezone);
    const ticks: string[] = [];
    for (let at = schedule.nextAfter(+from - 1); at <= to; at = schedule.nextAfter(at)) {
      if (ticks.length === MAX_BACKFILL_TICKS) {
        throw unprocessable('to', `the window holds more than ${MAX_BACKFILL_TICKS} ticks of the schedule`);
      }
      ticks.push(isoTime(at));
    }
    const events = await this.triggers.backfill(workflowId, ticks, traceOf(command));
    return { workflowId, from: isoTime(from), to: isoTime(to), ticks: backfillTicks(events) };
  }
}

function unprocessable(path: string, message: string): DomainError {
  return new DomainError('unprocessable', `The backfill's window is not one to run: ${path} ${message}`, [
    { path, message },
  ]);
}

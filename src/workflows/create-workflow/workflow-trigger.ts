import { WorkflowTrigger } from '../workflow/workflow.state';
import { TriggerDto } from './trigger.dto';

/** The trigger as the decider takes it, from the one a client sent: the cron's fields single-spaced, UTC by default. */
export function toTrigger(trigger: TriggerDto): WorkflowTrigger {
  return trigger.type === 'schedule'
    ? { type: 'schedule', cron: trigger.cron!.trim().split(/\s+/).join(' '), timezone: trigger.timezone ?? 'UTC' }
    : { type: 'manual' };
}

import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { AgentDirectory } from '../agents/agent-directory.port';
import { Clock } from '../shared/clock';
import { ValidationFailed } from '../shared/validation-failed';
import { UsageGrouping, UsageReadModel, UsageTotals } from './usage.read-model';

/** A group's sums; grouped by agent, `agentName` is the agent's name as it is now (null: no such agent). */
export type UsageGroup = UsageTotals & { key: string; agentName?: string | null };

export interface UsageReport {
  from: string | null;
  to: string;
  groupBy: UsageGrouping | null;
  totals: UsageTotals;
  groups: UsageGroup[];
}

export class GetUsageQuery extends Query<UsageReport> {
  constructor(
    readonly from: string | undefined,
    readonly to: string | undefined,
    readonly groupBy: UsageGrouping | undefined,
  ) {
    super();
  }
}

const HOUR = 3_600_000;
/** Before any run: the window's start when `from` is not given. */
const FIRST_HOUR = '0000-01-01T00';

/** Totals of runs, tokens and cost over a window of whole hours, from the hourly sums of the usage projection. */
@QueryHandler(GetUsageQuery)
export class GetUsageHandler implements IQueryHandler<GetUsageQuery> {
  constructor(
    private readonly readModel: UsageReadModel,
    private readonly agents: AgentDirectory,
    private readonly clock: Clock,
  ) {}

  async execute({ from, to, groupBy }: GetUsageQuery): Promise<UsageReport> {
    const start = from === undefined ? undefined : Math.floor(instant('from', from) / HOUR) * HOUR;
    const end = Math.ceil((to === undefined ? this.clock.now().getTime() + 1 : instant('to', to)) / HOUR) * HOUR;
    if (start !== undefined && start >= end) {
      throw new ValidationFailed([{ path: 'to', message: 'to must be later than from (counted in whole hours)' }]);
    }
    const fromHour = start === undefined ? FIRST_HOUR : hour(start);
    const toHour = hour(end);
    return {
      from: start === undefined ? null : new Date(start).toISOString(),
      to: new Date(end).toISOString(),
      groupBy: groupBy ?? null,
      totals: this.readModel.totals(fromHour, toHour),
      groups: groupBy ? this.groups(groupBy, fromHour, toHour) : [],
    };
  }

  /**
   * By agent, each group names its agent as the agents' read model has it now (through AgentDirectory): the sums are kept by id, so a
   * renamed agent's runs show under its new name, before the rename as after.
   */
  private groups(groupBy: UsageGrouping, fromHour: string, toHour: string): UsageGroup[] {
    const groups = this.readModel.groups(groupBy, fromHour, toHour);
    if (groupBy !== 'agent') return groups;
    return groups.map(({ key, ...totals }) => ({ key, agentName: this.agents.nameOf(key) ?? null, ...totals }));
  }
}

function instant(field: string, value: string): number {
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const dayExists = new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
  if (!dayExists || Number.isNaN(time) || time < 0) {
    throw new ValidationFailed([{ path: field, message: `${field} is not a date that exists: "${value}"` }]);
  }
  return time;
}

function hour(time: number): string {
  return new Date(time).toISOString().slice(0, 13);
}

import { ApiProperty } from '@nestjs/swagger';
import { RUN_STATUSES } from '../domain/run';
import { LIST_ITEMS, NAME_LENGTH, TIME, idField } from '../http/openapi/fields';
import { UsageSchema } from '../http/openapi/usage.schema';

/** The shapes of a run's place among other runs (children, handoffs, its tree), for the OpenAPI document. */

export class ChildRunSchema {
  @ApiProperty(idField('agentrun'))
  runId: string;

  @ApiProperty(idField('agent'))
  agentId: string;

  @ApiProperty({ maxLength: NAME_LENGTH, description: "The agent's name when it was called (`agent:<name>`)." })
  agent: string;

  @ApiProperty({ maxLength: NAME_LENGTH, description: 'The call of the parent that started it.' })
  toolCallId: string;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;
}

export class RunHandoffSchema {
  @ApiProperty({ ...idField('agent'), description: 'The agent that handed the conversation on.' })
  from: string;

  @ApiProperty({ maxLength: NAME_LENGTH })
  fromName: string;

  @ApiProperty({ ...idField('agent'), description: 'The agent it was handed to.' })
  to: string;

  @ApiProperty({ maxLength: NAME_LENGTH })
  toName: string;

  @ApiProperty({
    enum: ['all', 'last_user', 'summary'],
    description: 'What the next agent was sent (the exact messages are in the AgentRunHandedOff event).',
  })
  input: string;

  @ApiProperty(TIME)
  at: string;
}

export class WaitingOnSchema {
  @ApiProperty(idField('agentrun'))
  runId: string;

  @ApiProperty({ maxLength: NAME_LENGTH })
  agent: string;
}

export class RunTreeSchema {
  @ApiProperty(idField('agentrun'))
  runId: string;

  @ApiProperty(idField('agent'))
  agentId: string;

  @ApiProperty({ type: String, nullable: true, maxLength: NAME_LENGTH, description: 'Null for the root.' })
  agent: string | null;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: UsageSchema, nullable: true })
  usage: UsageSchema | null;

  @ApiProperty({ type: () => [RunTreeSchema], maxItems: LIST_ITEMS })
  children: RunTreeSchema[];
}

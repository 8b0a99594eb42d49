import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { NAME_LENGTH, idField } from '../http/openapi/fields';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export class ScoresQuery {
  @ApiPropertyOptional({ ...idField('agent'), description: "Only this agent's runs' scores." })
  @Matches(/^agent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'agent must be an agent id (agent_ and a ULID)' })
  @IsString({ message: 'agent must be given once' })
  @IsOptional()
  agent?: string;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: "Only this scorer's scores (by name)." })
  @MaxLength(NAME_LENGTH)
  @IsString({ message: 'scorer must be given once' })
  @IsOptional()
  scorer?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: DAY.source,
    maxLength: 10,
    example: '2026-11-01',
    description: 'Scores given on this day (UTC) or after. Unset: from the first.',
  })
  @Matches(DAY, { message: 'from must be a date, e.g. 2026-11-01' })
  @IsString({ message: 'from must be given once' })
  @IsOptional()
  from?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: DAY.source,
    maxLength: 10,
    example: '2026-12-01',
    description: 'Scores given before this day (UTC). Unset: to the last.',
  })
  @Matches(DAY, { message: 'to must be a date, e.g. 2026-12-01' })
  @IsString({ message: 'to must be given once' })
  @IsOptional()
  to?: string;

  @ApiPropertyOptional({ enum: ['day'], description: 'Also by day (UTC): each group then has its `day`.' })
  @IsIn(['day'], { message: 'groupBy must be day' })
  @IsOptional()
  groupBy?: 'day';
}

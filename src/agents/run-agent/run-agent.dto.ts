import { IsDefined, IsObject, IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from '../../http/validation';
import { NOT_BLANK } from '../create-agent/create-agent.dto';

export class RunAgentDto {
  @MaxLength(100_000)
  @Matches(NOT_BLANK, { message: 'task must not be empty' })
  @IsString()
  @IsDefined({ message: 'task is required' })
  task: string;

  @IsObject({ message: 'context must be an object' })
  @Optional()
  context: Record<string, unknown> = {};
}

import { IsObject } from 'class-validator';
import { Optional } from '../../http/validation';

export class TriggerWorkflowDto {
  @Optional()
  @IsObject({ message: 'input must be an object' })
  input: Record<string, unknown> = {};
}

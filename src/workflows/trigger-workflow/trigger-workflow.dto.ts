import { IsObject, IsOptional } from 'class-validator';

export class TriggerWorkflowDto {
  @IsOptional()
  @IsObject({ message: 'input must be an object' })
  input: Record<string, unknown> = {};
}

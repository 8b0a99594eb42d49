import { FreeFormObject } from '../../http/free-form-json';

export class TriggerWorkflowDto {
  /** Free-form JSON, stored as received. */
  @FreeFormObject({ message: 'input must be an object' })
  input: Record<string, unknown> = {};
}

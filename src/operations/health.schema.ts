import { ApiProperty, getSchemaPath } from '@nestjs/swagger';

export class HealthSchema {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status: string;

  @ApiProperty({ enum: ['sqlite', 'eventstoredb'], description: 'The kind of event store.' })
  store: string;

  @ApiProperty()
  storeReachable: boolean;

  @ApiProperty({ description: 'The store answers and the read models are up to date with the log.' })
  ready: boolean;

  @ApiProperty({ enum: ['following', 'behind', 'stopped'] })
  readModels: string;

  @ApiProperty({ maxLength: 20, description: 'The position in the log the read models have reached.' })
  readModelPosition: string;
}

export class CheckSchema {
  @ApiProperty({ enum: ['up', 'down'] })
  status: string;
}

/** Terminus' answer: each check by name, under `details`. */
export class ProbeSchema {
  @ApiProperty({ enum: ['ok', 'error'] })
  status: string;

  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(CheckSchema) } })
  details: Record<string, CheckSchema>;
}

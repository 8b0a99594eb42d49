import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Matches } from 'class-validator';
import { idField } from '../../http/openapi/fields';

const EXPERIMENT_ID = /^experiment_[0-9A-HJKMNP-TV-Z]{26}$/;

/** `GET /v1/experiments/compare`: the experiment before a change, and the one after it. */
export class CompareQuery {
  @ApiProperty({ ...idField('experiment'), description: 'The experiment before the change.' })
  @Matches(EXPERIMENT_ID, { message: 'base must be an experiment id (experiment_ and a ULID)' })
  @IsString({ message: 'base must be given once' })
  @IsDefined({ message: 'base is required' })
  base: string;

  @ApiProperty({ ...idField('experiment'), description: 'The experiment after it.' })
  @Matches(EXPERIMENT_ID, { message: 'head must be an experiment id (experiment_ and a ULID)' })
  @IsString({ message: 'head must be given once' })
  @IsDefined({ message: 'head is required' })
  head: string;
}

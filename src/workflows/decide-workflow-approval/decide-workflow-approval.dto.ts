import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, MaxLength } from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { Optional } from '../../http/validation';

export class DecideWorkflowApprovalDto {
  @ApiProperty({ enum: ['approve', 'reject'] })
  @IsIn(['approve', 'reject'], { message: 'decision must be "approve" or "reject"' })
  @IsDefined({ message: 'decision is required' })
  decision: 'approve' | 'reject';

  @ApiPropertyOptional({ maxLength: 2000, description: "Why; approving without `data`, it is the step's output." })
  @MaxLength(2000)
  @IsString()
  @Optional()
  reason?: string;

  /** Free-form JSON, stored as received. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "Approving: the step's output (its `outputObject`; later steps read `{{steps.N.output.field}}`).",
  })
  @FreeFormObject({ message: 'data must be an object' })
  data?: Record<string, unknown>;
}

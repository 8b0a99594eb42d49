import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../../http/validation';

export class ApprovalDecisionDto {
  @ApiProperty({ maxLength: 200, description: "A `toolCallId` of the run's `pendingApprovals`." })
  @MaxLength(200)
  @IsString()
  @IsDefined({ message: 'toolCallId is required' })
  toolCallId: string;

  @ApiProperty({ enum: ['approve', 'reject'] })
  @IsIn(['approve', 'reject'], { message: 'decision must be "approve" or "reject"' })
  @IsDefined({ message: 'decision is required' })
  decision: 'approve' | 'reject';

  @ApiPropertyOptional({ maxLength: 2000, description: 'Why; a rejection passes it to the model.' })
  @MaxLength(2000)
  @IsString()
  @Optional()
  reason?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "Approving: the arguments the tool runs with, instead of the model's.",
  })
  @IsObject({ message: 'args must be an object' })
  @Allow()
  @Optional()
  args?: Record<string, unknown>;
}

export class DecideApprovalsDto {
  @ApiProperty({ type: [ApprovalDecisionDto], minItems: 1, maxItems: 100 })
  @ValidateNested({ each: true })
  @Type(() => ApprovalDecisionDto)
  @ArrayMaxSize(100)
  @ArrayMinSize(1, { message: 'decisions must hold at least one decision' })
  @IsArray({ message: 'decisions must be an array' })
  @IsDefined({ message: 'decisions is required' })
  decisions: ApprovalDecisionDto[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { EVENT_PATTERN } from '../event-patterns';
import { DESCRIPTION_LENGTH, MAX_EVENT_PATTERNS, URL_LENGTH } from '../webhook.schema';

/**
 * No control characters (line breaks, tabs, NUL…): WHATWG URL parsing drops tabs and line breaks silently, so a URL
 * that holds one would be stored as sent and yet reach somewhere else than it reads.
 */
const NO_CONTROLS = /^[^\u0000-\u001f\u007f]*$/;
const NO_CONTROLS_MESSAGE = 'url must not hold control characters (such as a line break or a tab)';

const EVENTS_MESSAGE = 'each of events must be an event type or a glob such as AgentRun* (letters, digits and *)';

export class CreateWebhookDto {
  @ApiProperty({
    maxLength: URL_LENGTH,
    example: 'https://example.com/hooks/workflows',
    description: 'https, or http to a host in WEBHOOK_ALLOWED_HOSTS.',
  })
  @Matches(NO_CONTROLS, { message: NO_CONTROLS_MESSAGE })
  @MaxLength(URL_LENGTH)
  @IsString({ message: 'url must be a string' })
  @IsDefined({ message: 'url is required' })
  url: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: 100 },
    minItems: 1,
    maxItems: MAX_EVENT_PATTERNS,
    example: ['AgentRunSucceeded', 'WorkflowRun*'],
  })
  @Matches(EVENT_PATTERN, { each: true, message: EVENTS_MESSAGE })
  @IsString({ each: true, message: EVENTS_MESSAGE })
  @ArrayMaxSize(MAX_EVENT_PATTERNS)
  @ArrayMinSize(1, { message: 'events must name at least one event type' })
  @IsArray({ message: 'events must be an array' })
  @IsDefined({ message: 'events is required' })
  events: string[];

  @ApiPropertyOptional({ type: String, maxLength: DESCRIPTION_LENGTH, nullable: true })
  @MaxLength(DESCRIPTION_LENGTH)
  @IsString({ message: 'description must be a string' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  description?: string | null;
}

/** A PATCH: any of url, events, description, enabled. */
export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: URL_LENGTH })
  @Matches(NO_CONTROLS, { message: NO_CONTROLS_MESSAGE })
  @MaxLength(URL_LENGTH)
  @IsString({ message: 'url must be a string' })
  @IsOptional()
  url?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 100 },
    minItems: 1,
    maxItems: MAX_EVENT_PATTERNS,
  })
  @Matches(EVENT_PATTERN, { each: true, message: EVENTS_MESSAGE })
  @IsString({ each: true, message: EVENTS_MESSAGE })
  @ArrayMaxSize(MAX_EVENT_PATTERNS)
  @ArrayMinSize(1, { message: 'events must name at least one event type' })
  @IsArray({ message: 'events must be an array' })
  @IsOptional()
  events?: string[];

  @ApiPropertyOptional({ type: String, maxLength: DESCRIPTION_LENGTH, nullable: true })
  @MaxLength(DESCRIPTION_LENGTH)
  @IsString({ message: 'description must be a string' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  description?: string | null;

  @ApiPropertyOptional({
    description: 'false stops deliveries; true starts them again (with the events from then on).',
  })
  @IsBoolean({ message: 'enabled must be true or false' })
  @IsOptional()
  enabled?: boolean;
}

import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { Transform } from 'class-transformer';
import { Optional, normalizeText } from '../../http/validation';

// Validation stops at a property's first failure, and class-validator runs the lowest decorator first:
// so presence and type come last in each list, then the finer checks above them.

export const MODEL_PATTERN = /^[a-z0-9][a-z0-9._-]*\/\S+$/i;
export const NOT_BLANK = /\S/;
const TOOL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

export class CreateAgentDto {
  @MaxLength(200)
  @Matches(NOT_BLANK, { message: 'name must not be empty' })
  @IsString()
  @IsDefined({ message: 'name is required' })
  @Transform(normalizeText)
  name: string;

  @MaxLength(200)
  @Matches(MODEL_PATTERN, { message: 'model must be "provider/model", e.g. "openai/gpt-4o-mini"' })
  @IsString()
  @IsDefined({ message: 'model is required' })
  model: string;

  @MaxLength(100_000)
  @IsString()
  @Optional()
  instructions: string = '';

  @MaxLength(200, { each: true })
  @Matches(TOOL_PATTERN, {
    each: true,
    message: 'each tool must be an identifier such as "web_search" or "github.issues"',
  })
  @IsString({ each: true })
  @ArrayUnique({ message: 'tools must not repeat a tool' })
  @ArrayMaxSize(100)
  @IsArray()
  @Optional()
  tools: string[] = [];
}

import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsString, Matches, MaxLength } from 'class-validator';
import { NAME_LENGTH } from './openapi/fields';
import { NOT_BLANK, Optional, normalizeText } from './validation';

/*
 * The fields a new resource's body shares (a dataset's, a scorer's). The decorators are listed in the order a stack
 * of them is applied, bottom first, so that each field checks as it would written out: the type before the rest.
 */

/** A required name: a string that is not blank, at most NAME_LENGTH characters, compared in NFC. */
export function NameField(example: string, description?: string): PropertyDecorator {
  return applyDecorators(
    Transform(normalizeText),
    IsDefined({ message: 'name is required' }),
    IsString({ message: 'name must be a string' }),
    Matches(NOT_BLANK, { message: 'name must not be empty' }),
    MaxLength(NAME_LENGTH),
    ApiProperty({ maxLength: NAME_LENGTH, example, ...(description && { description }) }),
  );
}

/** An optional description (default ""), at most `maxLength` characters. */
export function DescriptionField(maxLength: number): PropertyDecorator {
  return applyDecorators(
    Optional(),
    IsString({ message: 'description must be a string' }),
    MaxLength(maxLength),
    ApiPropertyOptional({ maxLength, description: 'Default: "".' }),
  );
}

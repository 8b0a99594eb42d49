import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsString, MaxLength } from 'class-validator';

export class SubjectNamespacesDto {
  @ApiProperty({
    type: [String],
    maxItems: 50,
    items: { type: 'string', maxLength: 808 },
    example: ['users/ada'],
    description:
      'The memory namespaces about the subject (each with those below it): the values of items put in them from now on are sealed under its key, and they go when it is forgotten. Replaces what was bound before.',
  })
  @ArrayMaxSize(50)
  @MaxLength(808, { each: true })
  @IsString({ each: true, message: 'each namespace must be a string' })
  @IsArray({ message: 'namespaces must be an array' })
  @IsDefined({ message: 'namespaces is required' })
  namespaces: string[];
}

export class SubjectSchema {
  @ApiProperty({ maxLength: 200, example: 'user-42' })
  subjectId: string;

  @ApiProperty({ type: [String], maxItems: 50, items: { type: 'string', maxLength: 808 } })
  namespaces: string[];

  @ApiProperty({
    type: [String],
    maxItems: 100_000,
    items: { type: 'string', maxLength: 40 },
    description: 'The threads about the subject (created with its `subjectId`).',
  })
  threads: string[];

  @ApiProperty({
    type: [String],
    maxItems: 100_000,
    items: { type: 'string', maxLength: 40 },
    description: 'The runs about it: with its `context.subjectId`, on its threads, or children of its runs.',
  })
  runs: string[];

  @ApiProperty({ description: 'Memory items written about it (in its namespaces).' })
  memoryItems: number;

  @ApiProperty({
    format: 'date-time',
    maxLength: 40,
    nullable: true,
    type: String,
    description: 'When it was last forgotten; null: never.',
  })
  forgottenAt: string | null;
}

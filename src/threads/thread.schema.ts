import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CURSOR, LIST_ITEMS, NAME_LENGTH, PAGE_ITEMS, TEXT_LENGTH, TIME, idField } from '../http/openapi/fields';

/** The shapes the thread routes answer with, for the OpenAPI document. */

export class ThreadSchema {
  @ApiProperty(idField('thread', 'thread_01JDQB1C2D3E4F5G6H7J8K9M0N'))
  id: string;

  @ApiProperty(idField('agent'))
  agentId: string;

  @ApiProperty({ enum: ['idle', 'busy'], description: 'busy while a run on the thread is queued, running or waiting.' })
  status: string;

  @ApiProperty({ minimum: 0, description: 'Messages in the conversation.' })
  messageCount: number;

  @ApiProperty({
    type: String,
    maxLength: 100_000,
    nullable: true,
    description:
      "The running summary of the messages that fell out of the window (its agent's `memory.summarize`); null: none.",
  })
  summary: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata: Record<string, unknown>;

  @ApiProperty({
    type: String,
    maxLength: 200,
    nullable: true,
    description: 'The person it is about (see `DELETE /v1/subjects/{subjectId}`); null: none.',
  })
  subjectId: string | null;

  @ApiProperty(TIME)
  createdAt: string;

  @ApiProperty(TIME)
  updatedAt: string;

  @ApiProperty({ ...TIME, nullable: true, description: 'When DELETE archived it: it takes no more runs.' })
  archivedAt: string | null;
}

export class ThreadListSchema {
  @ApiProperty({ type: [ThreadSchema], maxItems: PAGE_ITEMS })
  threads: ThreadSchema[];

  @ApiProperty({ ...CURSOR, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  nextCursor: string | null;
}

export class ThreadToolCallSchema {
  @ApiProperty({ maxLength: NAME_LENGTH })
  id: string;

  @ApiProperty({ maxLength: NAME_LENGTH, example: 'current_time' })
  tool: string;

  @ApiProperty({ description: 'What the model passed to the tool.' })
  input: unknown;
}

export class ThreadMessageSchema {
  @ApiProperty({ enum: ['user', 'assistant', 'tool'] })
  role: string;

  @ApiProperty({ maxLength: TEXT_LENGTH, description: "The text; a tool message's is the tool's result as JSON." })
  content: string;

  @ApiPropertyOptional({ type: [ThreadToolCallSchema], maxItems: LIST_ITEMS })
  toolCalls?: ThreadToolCallSchema[];

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: 'A tool message: the call it answers.' })
  toolCallId?: string;

  @ApiPropertyOptional({
    enum: [true],
    description:
      'The answer of a turn a later one interrupted (`multitask: interrupt`): what it had written by then, perhaps nothing. Absent for the others.',
  })
  interrupted?: true;

  @ApiProperty(idField('agentrun'))
  runId: string;

  @ApiProperty(TIME)
  createdAt: string;
}

export class ThreadMessagePageSchema {
  @ApiProperty({ type: [ThreadMessageSchema], maxItems: PAGE_ITEMS })
  messages: ThreadMessageSchema[];

  @ApiProperty({ ...CURSOR, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  nextCursor: string | null;
}

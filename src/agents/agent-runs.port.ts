import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { idField } from '../http/openapi/fields';
import type { FastifyReply } from 'fastify';
import { FreeFormObject } from '../http/free-form-json';
import { ApiPreferWait } from '../http/prefer-wait';
import { NOT_BLANK } from '../http/validation';
import { TraceContext } from '../shared/trace-context';
import { RunSource } from '../domain/run';
import { AgentRunSchema } from './agent-run.schema';
import { AgentRun, MULTITASK_STRATEGIES, Multitask, SupersededBy, TurnsSuperseded } from './agent-run/agent-run.state';
import { OUTPUT_SCHEMA_FIELD } from './create-agent/create-agent.dto';

/**
 * What the features built on agents use to run an agent on a task from a route of theirs (a thread's next turn):
 * the task's body, the runs, and the OpenAPI of the answer. The agents' own run routes use the same.
 */

/** A task to run: on an agent, or on a thread (whose agent runs it). */
export class RunTaskDto {
  @ApiProperty({ maxLength: 100_000, example: 'Summarise this paper' })
  @MaxLength(100_000)
  @Matches(NOT_BLANK, { message: 'task must not be empty' })
  @IsString()
  @IsDefined({ message: 'task is required' })
  task: string;

  /** Free-form JSON, stored as received. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { url: 'https://arxiv.org/abs/1234.5678' },
    description: 'Free-form JSON the model gets with the task. Default: {}.',
  })
  @FreeFormObject({ message: 'context must be an object' })
  context: Record<string, unknown> = {};

  /** Free-form JSON, checked as a JSON Schema by the controller. */
  @ApiPropertyOptional({
    ...OUTPUT_SCHEMA_FIELD,
    description: "The JSON Schema this run's answer must match, instead of the agent's. Default: the agent's.",
  })
  @FreeFormObject({ message: 'outputSchema must be a JSON Schema object' })
  outputSchema: Record<string, unknown> | null = null;
}

/** A thread's next task: by default the agent that answered the thread's last turn takes it (after a handoff). */
export class RunThreadTaskDto extends RunTaskDto {
  @ApiPropertyOptional({
    ...idField('agent'),
    description:
      "The agent to begin this turn with. Default: the agent that answered the thread's last turn (after a handoff, the one handed to), else the thread's agent.",
  })
  @Matches(/^agent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'agentId must be an agent id (agent_ and a ULID)' })
  @IsString()
  @IsOptional()
  agentId?: string;

  @ApiPropertyOptional({
    enum: MULTITASK_STRATEGIES,
    description:
      'What to do when a turn of the thread has not ended: `enqueue` (the default) runs this one after it, `reject` answers 409 `thread-busy`, `interrupt` cancels it (keeping what it had said in the thread, marked interrupted), `rollback` cancels it and keeps nothing of it.',
  })
  @IsIn(MULTITASK_STRATEGIES, { message: `multitask must be one of ${MULTITASK_STRATEGIES.join(', ')}` })
  @IsOptional()
  multitask?: Multitask;
}

/**
 * The agent that runs a task, the thread whose conversation it continues, if any, the agent it begins with, and the
 * protocol session it is asked for in (an MCP client's, an A2A conversation), if not the HTTP API.
 */
export interface RunPlace {
  agentId: string;
  threadId?: string;
  startAgentId?: string;
  source?: RunSource;
  /** A thread's turn that cancels the turns open before it. */
  multitask?: TurnsSuperseded;
}

/** Agent runs as other features start them. The agents module provides it. */
export abstract class AgentRuns {
  /**
   * Queues a run on the task, as `POST /v1/agents/{id}/run` does: first a 400 for an `outputSchema` that is not a
   * JSON Schema, before anything is read or recorded; then `on` says the agent that runs it and, for a thread's next
   * turn, the thread (it may throw, a 404 for a thread that does not exist, say).
   */
  abstract queue(task: RunTaskDto, on: () => RunPlace, trace?: TraceContext): Promise<AgentRun>;

  /**
   * The answer to the request that queued the run: PreferWait's, waiting also for a run on a thread to have its
   * turn in the thread's messages, and answering a run that waits for a person at once.
   */
  abstract answer(queued: AgentRun, prefer: string | undefined, reply: FastifyReply): Promise<AgentRun>;

  /**
   * The run once it has ended or waits for a person (its own approvals or those of a run below it), with a thread's
   * turn in the thread's messages; as it stands after `timeoutMs`, or once the service stops. For the protocols
   * (MCP, A2A), whose calls wait for the run without a `Prefer: wait` bound.
   */
  abstract settled(queued: AgentRun, timeoutMs: number): Promise<AgentRun>;

  /**
   * Cancels the runs a later turn of their thread supersedes (its `interrupt` or `rollback`). A run that has ended
   * meanwhile keeps its end.
   */
  abstract supersede(runIds: string[], by: SupersededBy): Promise<void>;
}

/** The OpenAPI of a route that queues an agent run and answers as AgentRuns does. */
export function ApiAgentRunAnswers(described: { ended: string; pending: string }): MethodDecorator {
  return ApiPreferWait(AgentRunSchema, described);
}

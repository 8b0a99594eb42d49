import { Command } from '@nestjs/cqrs';
import { RunSource } from '../../domain/run';
import { AgentRun, TurnsSuperseded } from '../agent-run/agent-run.state';

export class RunAgentCommand extends Command<AgentRun> {
  constructor(
    readonly agentId: string,
    readonly task: string,
    readonly context: Record<string, unknown>,
    readonly outputSchema: Record<string, unknown> | null = null,
    /** The thread whose conversation the run continues. */
    readonly threadId?: string,
    /** The run this one replays. */
    readonly replayOf?: string,
  ) {
    super();
  }

  /** A thread's turn: the agent to begin with, instead of the one that answered the thread's last turn. */
  startAgentId?: string;
  /** The protocol session the run is asked for in (MCP, A2A), if not the HTTP API. */
  source?: RunSource;
  /** A thread's turn that cancels the turns open before it (`multitask: interrupt` or `rollback`). */
  multitask?: TurnsSuperseded;
}

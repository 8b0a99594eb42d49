import type { AgentRun } from './agent-run/agent-run.state';

/**
 * What a run on a thread (a turn of its conversation) asks of the threads feature. Threads build on agents, so
 * this feature only declares the questions; the threads feature answers them.
 */
export abstract class ThreadTurns {
  /**
   * Refuses a turn the agent may not take: a 422 for a thread that does not exist, a 409 for one of another agent or
   * archived.
   */
  abstract checkTurn(threadId: string, agentId: string): Promise<void>;

  /**
   * Waits, as long as a write waits for the read models, until the turn of an ended run on a thread is in the
   * thread's messages, so that a 200 for the run means a read of the messages right after it shows the turn.
   * Returns at once for a run on no thread, or one that has not ended.
   */
  abstract recorded(run: AgentRun): Promise<void>;

  /** The run whose exchange is the thread's last, if any (its `answeredBy` begins the next turn). */
  abstract lastRunId(threadId: string): string | undefined;
}

/**
 * What the features that try agents (experiments) use of them: a change of an agent's definition checked as a
 * PATCH of it would be, without saving it. The agents module answers it.
 */
export abstract class AgentTrials {
  /**
   * Checks `overrides` (a merge patch) on the agent at `version`: a ValidationFailed names each problem by its path
   * in the patch (`tools[0]`; `body` for the patch as a whole), as a PATCH's 400 would.
   */
  abstract check(agentId: string, version: number, overrides: Record<string, unknown>): Promise<void>;
}

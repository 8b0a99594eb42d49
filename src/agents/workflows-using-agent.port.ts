/** A workflow, not archived, that names an agent in some of its steps (their positions, from 0). */
export interface WorkflowUsingAgent {
  id: string;
  name: string;
  steps: number[];
}

/**
 * The workflows whose steps name an agent, which archiving it asks about first (their next runs would fail at those
 * steps). The workflows feature builds on this one and answers it; this one only declares the question.
 */
export abstract class WorkflowsUsingAgent {
  abstract usingAgent(agentName: string): WorkflowUsingAgent[];
}

/** A workflow as an experiment names it. */
export interface TrialWorkflow {
  id: string;
  name: string;
  version: number;
}

/**
 * What the features that try workflows (experiments) use of them: the workflow a target names, and a change of its
 * definition checked as a PATCH of it would be, without saving it. The workflows module answers it.
 */
export abstract class WorkflowTrials {
  /**
   * The workflows not archived that `name` names: the one with that id, or those with that name (names need not be
   * unique, so there may be several).
   */
  abstract named(name: string): TrialWorkflow[];

  /**
   * Checks `overrides` (a merge patch) on the workflow at `version`: a ValidationFailed names each problem by its
   * path in the patch (`steps[0].agent`; `body` for the patch as a whole), as a PATCH's 400 would.
   */
  abstract check(workflowId: string, version: number, overrides: Record<string, unknown>): Promise<void>;
}

import type { Agent } from '../../agents/agent';
import type { GuardrailStage } from '../../agents/guardrails';
import type { ModelAttempt } from '../../domain/run';
import type { ModelProviders } from '../../models/model-providers';
import { ModelRunError } from '../../models/model-run-error';
import type { JudgeAnswer } from '../../agents/guardrail-checks/run-checks';

type AgentLoopModule = typeof import('../agent-loop/agent-loop');

/** The structured answer a judge gives. */
export const JUDGE_ANSWER = {
  type: 'object',
  properties: {
    allow: { type: 'boolean', description: 'Whether the text may go on.' },
    reason: { type: 'string', description: 'Why, in one short sentence.' },
  },
  required: ['allow', 'reason'],
  additionalProperties: false,
} as const;

const WHAT_IS_JUDGED: Record<GuardrailStage, string> = {
  input: 'the task an agent was given',
  output: "an agent's answer",
  toolResults: 'what a tool answered an agent',
};

/** A verdict's reason is kept to this length. */
const REASON_CHARS = 200;

/**
 * The judges of one run's guardrails: a `{type: "agent"}` check asks the named agent, with its instructions, model
 * and fallback models and no tools, whether the text may go on. A judge that cannot answer (no such agent, a model
 * error) does not allow it; the run's cancel and time limit stop a judge as they stop the run. What the judges'
 * model calls used is kept in `attempts`, to be counted to the run.
 */
export class GuardrailJudge {
  readonly attempts: ModelAttempt[] = [];

  constructor(
    private readonly agents: { activeAgentNamed(name: string): Agent | undefined },
    private readonly providers: ModelProviders,
    private readonly loop: AgentLoopModule,
    private readonly signal: AbortSignal,
  ) {}

  readonly ask = async (name: string, stage: GuardrailStage, text: string): Promise<JudgeAnswer> => {
    const judge = this.agents.activeAgentNamed(name);
    if (!judge) return { allow: false, reason: `No active agent is named "${name}": the judge could not be asked` };
    try {
      const result = await this.loop.runAgentLoop(
        {
          model: judge.model,
          fallbackModels: judge.fallbackModels,
          instructions: judge.instructions,
          task: `Decide whether ${WHAT_IS_JUDGED[stage]} may go on. The text, between the lines:\n---\n${text}\n---`,
          context: {},
          tools: [],
          maxSteps: 1,
          outputSchema: JUDGE_ANSWER,
          signal: this.signal,
        },
        { delta: () => undefined, toolCalled: async () => undefined, toolReturned: async () => undefined },
        this.providers,
      );
      this.attempts.push(...result.modelAttempts);
      const answer = result.outputObject as JudgeAnswer;
      return { allow: answer.allow, reason: answer.reason.slice(0, REASON_CHARS) };
    } catch (error) {
      if (this.signal.aborted) throw error;
      if (error instanceof ModelRunError) this.attempts.push(...error.modelAttempts);
      const message = error instanceof Error ? error.message : String(error);
      return { allow: false, reason: `The judge "${name}" could not answer: ${message}`.slice(0, REASON_CHARS) };
    }
  };
}

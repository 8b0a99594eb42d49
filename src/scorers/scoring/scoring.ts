import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '../../agents/agent-directory.port';
import { AgentRuns } from '../../agents/agent-runs.port';
import type { RunTaskDto } from '../../agents/agent-runs.port';
import { DomainError } from '../../domain/decider';
import type { TraceContext } from '../../shared/trace-context';
import type { Score, Scorer } from '../scorer';
import { ScoredAnswer, Verdict, codeScore } from './code-scorers';

/** How long a judge's run may take before its score is given up. */
export const JUDGE_TIMEOUT_MS = 120_000;

/** The shape a judge must answer in: a score from 0 to 1 and why. */
export const JUDGE_ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    score: { type: 'number', minimum: 0, maximum: 1, description: '0: fails the rubric; 1: meets it fully' },
    reason: { type: 'string', description: 'Why, in a sentence or two' },
  },
  required: ['score', 'reason'],
  additionalProperties: false,
} as const;

/** A judge could not give a score: its agent is gone, or its run failed or did not end in time. */
export class JudgeFailed extends DomainError {
  constructor(
    message: string,
    readonly judgeRunId?: string,
  ) {
    super('upstream_failed', message, [], 'judge-failed');
  }
}

/**
 * Scores answers: a code scorer at once; a judge by an ordinary run of its agent, marked as the judge's
 * (`source: {protocol: "scorer"}`), whose structured answer `{score, reason}` is the score.
 */
@Injectable()
export class Scoring {
  constructor(
    private readonly runs: AgentRuns,
    private readonly agents: AgentDirectory,
  ) {}

  async score(scorer: Scorer, answer: ScoredAnswer, trace?: TraceContext): Promise<Score & { judgeRunId?: string }> {
    const verdict = scorer.type === 'judge' ? await this.judge(scorer, answer, trace) : await codeScore(scorer, answer);
    return { scorer: scorer.name, ...verdict };
  }

  private async judge(
    scorer: Extract<Scorer, { type: 'judge' }>,
    answer: ScoredAnswer,
    trace?: TraceContext,
  ): Promise<Verdict & { judgeRunId: string }> {
    const agent = this.agents.activeAgentNamed(scorer.agent);
    if (!agent) throw new JudgeFailed(`The judge agent "${scorer.agent}" of scorer ${scorer.name} is not active`);
    const task = {
      task: judgeTask(scorer.rubric, answer),
      context: {},
      outputSchema: JUDGE_ANSWER_SCHEMA as unknown as Record<string, unknown>,
    } as RunTaskDto;
    const source = { protocol: 'scorer' as const, scorerId: scorer.id };
    const queued = await this.runs.queue(task, () => ({ agentId: agent.id, source }), trace);
    const run = await this.runs.settled(queued, JUDGE_TIMEOUT_MS);
    const judged = run.outputObject as { score?: unknown; reason?: unknown } | null;
    if (run.status !== 'succeeded' || typeof judged?.score !== 'number') {
      const why = run.error ? `${run.error.code}: ${run.error.message}` : `it is ${run.status}`;
      throw new JudgeFailed(`The judge run ${run.id} of scorer ${scorer.name} gave no score (${why})`, run.id);
    }
    const score = Math.min(1, Math.max(0, judged.score));
    return { score, ...(typeof judged.reason === 'string' && { reason: judged.reason }), judgeRunId: run.id };
  }
}

/** What a judge is asked: the rubric, the input, the answer and the answer expected. */
export function judgeTask(rubric: string, { input, output, outputObject, expected }: ScoredAnswer): string {
  const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  const given = outputObject !== undefined && outputObject !== null ? json(outputObject) : (output ?? '(no answer)');
  return [
    'Score the answer below against the rubric: 0 when it fails the rubric, 1 when it meets it fully, or between.',
    `Rubric:\n${rubric}`,
    `Input:\n${json(input)}`,
    `Answer:\n${given}`,
    `Expected answer:\n${expected === null || expected === undefined ? '(none given)' : json(expected)}`,
  ].join('\n\n');
}

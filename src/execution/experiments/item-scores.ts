import { Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import { DatasetsReadModel } from '../../datasets/queries/datasets.read-model';
import type { ExperimentAggregate, ScoredItem } from '../../experiments/experiment';
import { ScorersReadModel } from '../../scorers/queries/scorers.read-model';
import { runAnswer } from '../../scorers/scoring/run-answer';
import { JudgeFailed, Scoring } from '../../scorers/scoring/scoring';

/**
 * An experiment item's score: its run's answer, judged by each of the experiment's scorers. A run that did not
 * succeed scores 0 on each (a change that makes runs fail lowers the means); a judge that gives no score leaves
 * that scorer's score of the item out, and says so in the log.
 */
@Injectable()
export class ItemScores {
  private readonly logger = new Logger(ItemScores.name);

  constructor(
    private readonly actors: ActorRegistry,
    private readonly datasets: DatasetsReadModel,
    private readonly scorers: ScorersReadModel,
    private readonly scoring: Scoring,
  ) {}

  async of(experiment: ExperimentAggregate, itemId: string, runId: string): Promise<ScoredItem> {
    const run = await this.actors.of(agentRunStream(runId), agentRunDecider).read();
    if (!run) throw new Error(`The run ${runId} of experiment ${experiment.id} is not in the store`);
    const item = this.datasets.itemEver(experiment.dataset.id, itemId);
    const answer = runAnswer(run, { input: item?.input ?? null, expected: item?.expected ?? null });
    const { usage, durationMs } = answer.run!;
    const scores: ScoredItem['scores'] = [];
    for (const { id, name } of experiment.scorers) {
      if (run.status !== 'succeeded') {
        scores.push({ scorer: name, score: 0, reason: `the run ${run.status}` });
        continue;
      }
      const scorer = this.scorers.get(id);
      if (!scorer) continue;
      try {
        const { judgeRunId: _judge, ...score } = await this.scoring.score(scorer, answer);
        scores.push(score);
      } catch (error) {
        if (!(error instanceof JudgeFailed)) throw error;
        this.logger.warn(`Item ${itemId} of experiment ${experiment.id} has no "${name}" score: ${error.message}`);
      }
    }
    return {
      itemId,
      runId,
      status: run.status,
      output: run.output,
      ...(run.outputObject !== null && run.outputObject !== undefined && { outputObject: run.outputObject }),
      ...(run.error && { error: { code: run.error.code, message: run.error.message } }),
      scores,
      usage,
      durationMs,
      modelCalls: run.attempts,
      ...(run.trial?.recordedFrom && { recorded: recordedCounts(run.toolCalls) }),
    };
  }
}

/** A trial's tool calls given their recorded result, and those that ran the tool (calls of agents aside). */
function recordedCounts(calls: Array<{ replayed?: boolean }>): { hits: number; misses: number } {
  const hits = calls.filter((call) => call.replayed === true).length;
  return { hits, misses: calls.filter((call) => call.replayed === false).length };
}

import { Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import { DatasetsReadModel } from '../../datasets/queries/datasets.read-model';
import { type ExperimentAggregate, type ScoredItem, isWorkflowTarget } from '../../experiments/experiment';
import { ScorersReadModel } from '../../scorers/queries/scorers.read-model';
import { JudgeFailed, Scoring } from '../../scorers/scoring/scoring';
import { agentItemRun, workflowItemRun } from './item-run-results';

/**
 * An experiment item's score: its run's answer (an agent run's, or a workflow run's), judged by each of the
 * experiment's scorers. A run that did not succeed scores 0 on each (a change that makes runs fail lowers the
 * means); a judge that gives no score leaves that scorer's score of the item out, and says so in the log.
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
    const item = this.datasets.itemEver(experiment.dataset.id, itemId);
    const given = { input: item?.input ?? null, expected: item?.expected ?? null };
    const resultOf = isWorkflowTarget(experiment.target) ? workflowItemRun : agentItemRun;
    const { answer, ...run } = await resultOf(this.actors, runId, given);
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
    const { usage, durationMs } = answer.run!;
    return { itemId, runId, ...run, scores, usage, durationMs };
  }
}

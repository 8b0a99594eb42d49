import { Injectable } from '@nestjs/common';
import { DomainError } from '../../domain/decider';
import { DatasetItems } from '../../datasets/dataset-items.port';
import { ExperimentComparison, compareExperiments } from '../experiment-comparison';
import { ExperimentView, summarySoFar } from '../experiment-view';
import { ExperimentResult, ExperimentsReadModel } from './experiments.read-model';

/** Most results read at once to make a running experiment's summary (a dataset holds at most 10,000 items). */
const RESULTS_READ = 10_000;

/** An experiment as the API shows it: its summary recorded with its end, or made from its results so far. */
@Injectable()
export class ExperimentQueries {
  constructor(
    private readonly experiments: ExperimentsReadModel,
    private readonly datasets: DatasetItems,
  ) {}

  get(experimentId: string): ExperimentView {
    const view = this.experiments.get(experimentId);
    if (!view) throw new DomainError('not_found', `Experiment ${experimentId} does not exist`);
    if (view.summary) return view;
    return { ...view, summary: summarySoFar(view, this.resultsOf(experimentId)) };
  }

  /** Two experiments on one dataset compared item by item; experiments on two datasets are a 422. */
  compare(baseId: string, headId: string): ExperimentComparison {
    const [base, head] = [this.get(baseId), this.get(headId)];
    if (base.dataset.id !== head.dataset.id) {
      const message = `${baseId} ran dataset ${base.dataset.id} and ${headId} ran ${head.dataset.id}: compare experiments on one dataset`;
      throw new DomainError('unprocessable', message, [{ path: 'head', message }]);
    }
    return compareExperiments(
      { view: base, results: this.resultsOf(baseId) },
      { view: head, results: this.resultsOf(headId) },
      (itemId) => this.datasets.itemEver(base.dataset.id, itemId)?.input ?? null,
    );
  }

  private resultsOf(experimentId: string): ExperimentResult[] {
    return this.experiments.results(experimentId, '', RESULTS_READ).items;
  }
}

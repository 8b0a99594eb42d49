import { Injectable } from '@nestjs/common';
import { DomainError } from '../../domain/decider';
import { ExperimentView, summarySoFar } from '../experiment-view';
import { ExperimentResult, ExperimentsReadModel } from './experiments.read-model';

/** Most results read at once to make a running experiment's summary (a dataset holds at most 10,000 items). */
const RESULTS_READ = 10_000;

/** An experiment as the API shows it: its summary recorded with its end, or made from its results so far. */
@Injectable()
export class ExperimentQueries {
  constructor(private readonly experiments: ExperimentsReadModel) {}

  get(experimentId: string): ExperimentView {
    const view = this.experiments.get(experimentId);
    if (!view) throw new DomainError('not_found', `Experiment ${experimentId} does not exist`);
    if (view.summary) return view;
    const results: ExperimentResult[] = this.experiments.results(experimentId, '', RESULTS_READ).items;
    return { ...view, summary: summarySoFar(view, results) };
  }
}

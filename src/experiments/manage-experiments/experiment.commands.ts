import { Command } from '@nestjs/cqrs';
import type { ExperimentView } from '../experiment-view';
import type { CreateExperimentDto } from './experiment.dto';

export class CreateExperimentCommand extends Command<ExperimentView> {
  constructor(readonly body: CreateExperimentDto) {
    super();
  }
}

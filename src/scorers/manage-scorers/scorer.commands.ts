import { Command } from '@nestjs/cqrs';
import type { Score, Scorer } from '../scorer';
import type { ScoredAnswer } from '../scoring/code-scorers';
import type { CreateScorerDto } from './scorer.dto';

export class CreateScorerCommand extends Command<Scorer> {
  constructor(readonly body: CreateScorerDto) {
    super();
  }
}

export class ArchiveScorerCommand extends Command<Scorer> {
  constructor(readonly scorerId: string) {
    super();
  }
}

/** Scores an answer now with the scorer (nothing is recorded but a judge's own run). */
export class ScoreAnswerCommand extends Command<Score & { judgeRunId?: string }> {
  constructor(
    readonly scorerId: string,
    readonly answer: ScoredAnswer,
  ) {
    super();
  }
}

import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { AgentDirectory } from '../../agents/agent-directory.port';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { traceOf } from '../../shared/trace-context';
import { Scorer, scorerDecider, scorerStream } from '../scorer';
import { ScorersReadModel } from '../queries/scorers.read-model';
import { Scoring } from '../scoring/scoring';
import { ArchiveScorerCommand, CreateScorerCommand, ScoreAnswerCommand } from './scorer.commands';
import { definitionOf } from './scorer-definition';

@CommandHandler(CreateScorerCommand)
export class CreateScorerHandler implements ICommandHandler<CreateScorerCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly scorers: ScorersReadModel,
    private readonly agents: AgentDirectory,
  ) {}

  async execute(command: CreateScorerCommand): Promise<Scorer> {
    const { name, description = '' } = command.body;
    const definition = await definitionOf(command.body);
    if (definition.type === 'judge' && !this.agents.hasAgentNamed(definition.agent)) {
      const message = `No active agent is named "${definition.agent}"`;
      throw new DomainError('unprocessable', message, [{ path: 'agent', message }]);
    }
    const taken = this.scorers.activeNamed(name);
    if (taken) throw new DomainError('conflict', `The active scorer ${taken.id} is named "${name}" already`);
    const id = this.ids.newId('scorer');
    const created = await this.actors.send(
      scorerStream(id),
      scorerDecider,
      { type: 'CreateScorer', id, name, description, definition },
      { correlationId: id, causationId: id, trace: traceOf(command) },
      { newStream: true },
    );
    await this.readYourWrites.waitFor(created.position);
    return created.state!;
  }
}

@CommandHandler(ArchiveScorerCommand)
export class ArchiveScorerHandler implements ICommandHandler<ArchiveScorerCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: ArchiveScorerCommand): Promise<Scorer> {
    const { scorerId } = command;
    const archived = await this.actors.send(
      scorerStream(scorerId),
      scorerDecider,
      { type: 'ArchiveScorer', scorerId },
      { correlationId: scorerId, causationId: scorerId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(archived.position);
    return archived.state!;
  }
}

@CommandHandler(ScoreAnswerCommand)
export class ScoreAnswerHandler implements ICommandHandler<ScoreAnswerCommand> {
  constructor(
    private readonly scorers: ScorersReadModel,
    private readonly scoring: Scoring,
  ) {}

  async execute(command: ScoreAnswerCommand) {
    const scorer = this.scorers.get(command.scorerId);
    if (!scorer) throw new DomainError('not_found', `Scorer ${command.scorerId} does not exist`);
    return this.scoring.score(scorer, command.answer, traceOf(command));
  }
}

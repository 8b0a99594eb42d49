import { Inject, Injectable, Logger } from '@nestjs/common';
import { ActorRegistry } from '../../actors/actor-registry';
import type { BatchCommand } from '../../actors/batch-sender';
import { AgentDirectory } from '../../agents/agent-directory.port';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import type { ScoreAgentRun } from '../../agents/agent-run/agent-run.commands';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { DomainError } from '../../domain/decider';
import { AgentRunSucceeded, agentRunStream } from '../../agents/agent-run/agent-run.events';
import type { AgentRun, RunScore } from '../../agents/agent-run/agent-run.state';
import type { LiveScorer as AgentScorer } from '../../agents/live-scorers';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../../consumers/process-manager';
import { RecordedEvent } from '../../event-store/event-store';
import { ScorersReadModel } from '../../scorers/queries/scorers.read-model';
import { runAnswer } from '../../scorers/scoring/run-answer';
import { JudgeFailed, Scoring } from '../../scorers/scoring/scoring';
import { isSampled } from './run-sampling';

/**
 * Scores live traffic: each succeeded run of an agent with `scorers` is scored, after it has ended and never on
 * its own path, by each of them that samples it (see isSampled), and the scores are recorded on the run
 * (`AgentRunScored`). It follows the log from its own checkpoint, so a restart reads on from where it was; the run's
 * decider records each scorer's score of a run once. Not scored: a judge's own run (so judging never feeds itself)
 * and an experiment's item (its experiment scores it).
 */
@Injectable()
export class LiveScorer extends ProcessManager {
  protected readonly name = 'live-scorer';
  protected override readonly follows = { filter: { eventTypes: ['AgentRunSucceeded'] } };
  /** Most runs' agents have no scorers: a restart reads a second of the log again rather than a write per run. */
  protected override readonly checkpointEveryMs = 1000;
  private readonly scoreLogger = new Logger(LiveScorer.name);

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly agents: AgentDirectory,
    private readonly runs: AgentsReadModel,
    private readonly scorers: ScorersReadModel,
    private readonly scoring: Scoring,
  ) {
    super(deps, config.runs.executorEnabled);
  }

  /**
   * Scores the batch's sampled runs at once, then records all their scores together: one commit on SQLite, rather
   * than one per run. A batch the store refuses is tried again whole; what was recorded already is not recorded twice.
   */
  protected override async handle(events: RecordedEvent[]): Promise<void> {
    const scored = await Promise.all(
      events.map((event) => this.persistently(() => this.scoreOf(event), `Scoring ${event.type} at ${event.position}`)),
    );
    const commands = scored.filter((command) => command !== undefined);
    if (!commands.length) return;
    await this.persistently(async () => {
      const outcomes = await this.actors.sendBatch(agentRunDecider, commands);
      // A refusal (the run is not there as it was) leaves nothing to do; any other failure is tried again.
      const failed = outcomes.find((outcome) => 'error' in outcome && !(outcome.error instanceof DomainError));
      if (failed && 'error' in failed) throw failed.error;
    }, `Recording the scores of ${commands.length} runs`);
  }

  /** The command that records a succeeded run's scores by the scorers that sample it; undefined when there are none. */
  private async scoreOf(event: RecordedEvent): Promise<BatchCommand<ScoreAgentRun> | undefined> {
    const ended = event.data as AgentRunSucceeded['data'];
    if (ended.experimentId || !ended.agentId) return undefined;
    const sampled = (this.agents.get(ended.agentId)?.scorers ?? []).filter((entry) =>
      isSampled(ended.runId, entry.scorer, entry.sampling),
    );
    if (!sampled.length) return undefined;
    // The read models have the run once they have applied its end; until then the store has it. Their run is the
    // stream as of its end, most likely: the batch decides on it without a read (a stream that moved on since
    // conflicts, and is read then).
    const projected = this.runs.getRunAggregate(ended.runId);
    const context = projected?.status === 'succeeded' && this.runs.runContext(ended.runId);
    const run =
      projected && context
        ? { ...projected, context }
        : await this.actors.of(agentRunStream(ended.runId), agentRunDecider).read();
    if (!run || run.status !== 'succeeded' || run.source?.protocol === 'scorer') return undefined;
    const scoredBefore = new Set((run.scores ?? []).map((score) => score.scorer));
    const scores = await this.scoresOf(
      run,
      sampled.filter((entry) => !scoredBefore.has(entry.scorer)),
    );
    if (!scores.length) return undefined;
    return {
      stream: agentRunStream(run.id),
      command: { type: 'ScoreAgentRun', scores },
      context: { correlationId: event.metadata.correlationId ?? run.id, causationId: run.id },
      known: projected && context ? { state: run, revision: event.revision } : undefined,
    };
  }

  /** Each sampled scorer's score; a scorer archived since, or a judge that gives none, is left out and logged. */
  private async scoresOf(run: AgentRun, sampled: AgentScorer[]): Promise<Array<Omit<RunScore, 'at'>>> {
    const answer = runAnswer(run);
    const scores: Array<Omit<RunScore, 'at'>> = [];
    for (const { scorer: name } of sampled) {
      const scorer = this.scorers.activeNamed(name);
      if (!scorer) {
        this.scoreLogger.warn(`Run ${run.id} is not scored by "${name}": no active scorer has that name`);
        continue;
      }
      try {
        const { scorer: _name, ...verdict } = await this.scoring.score(scorer, answer);
        scores.push({ scorer: name, scorerId: scorer.id, ...verdict });
      } catch (error) {
        if (!(error instanceof JudgeFailed)) throw error;
        this.scoreLogger.warn(`Run ${run.id} has no "${name}" score: ${error.message}`);
      }
    }
    return scores;
  }
}

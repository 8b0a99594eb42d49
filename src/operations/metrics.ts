import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { RecordedEvent } from '../event-store/event-store';
import { AppliedEvents } from '../read-models/applied-events';
import { ReadModelReadiness } from '../read-models/read-model-readiness';
import { READ_DATABASE } from '../read-models/read-database';
import { WorkflowTriggered } from '../workflows/workflow/workflow.events';
import { AGENT_RUN_ENDINGS, AgentRunScored, AgentRunSucceeded } from '../agents/agent-run/agent-run.events';
import { RunStatusCounts } from './run-status-counts';
import type { ModelAttempt, Usage } from '../domain/run';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The Prometheus metrics of this instance, served at /metrics. */
@Injectable()
export class Metrics implements OnModuleInit {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route and status, with their latency',
    labelNames: ['method', 'route', 'status'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly events = new Counter({
    name: 'events_total',
    help: 'Events recorded in the log, by type, as this instance applied them live (not in its catch-up at start)',
    labelNames: ['type'],
    registers: [this.registry],
  });
  private readonly projectionLag = new Histogram({
    name: 'projection_lag_seconds',
    help: 'Time from an event being recorded to the read models showing it',
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly tokens = new Counter({
    name: 'model_tokens_total',
    help: 'Tokens of ended agent runs, by provider, model, agent and direction (input or output)',
    labelNames: ['provider', 'model', 'agent', 'direction'],
    registers: [this.registry],
  });
  private readonly cost = new Counter({
    name: 'model_cost_usd_total',
    help: 'What ended agent runs cost in US dollars, by provider, model and agent (runs of priced models only)',
    labelNames: ['provider', 'model', 'agent'],
    registers: [this.registry],
  });
  private readonly scores = new Histogram({
    name: 'run_score',
    help: "Live scores of succeeded runs (their agent's scorers, sampled), by agent and scorer",
    labelNames: ['agent', 'scorer'],
    buckets: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
    registers: [this.registry],
  });
  private readonly runCounts: RunStatusCounts[] = [];
  private readonly scheduleLag = new Histogram({
    name: 'schedule_lag_seconds',
    help: 'Time from a schedule tick to its run being recorded',
    buckets: SECONDS,
    registers: [this.registry],
  });

  constructor(
    private readonly appliedEvents: AppliedEvents,
    private readonly readModels: ReadModelReadiness,
    @Inject(READ_DATABASE) db: Database.Database,
  ) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'read_model_position',
      help: 'The position in the log the read models have reached',
      registers: [this.registry],
      collect() {
        this.set(Number(appliedEvents.position));
      },
    });
    for (const name of ['agent_runs', 'workflow_runs'] as const) {
      const counts = RunStatusCounts.of(name);
      this.runCounts.push(counts);
      new Gauge({
        name,
        help: `${name.replace('_', ' ')} by status`,
        labelNames: ['status'],
        registers: [this.registry],
        collect() {
          // Counted once, when the read models have caught up; moved by each run event from then on.
          if (!counts.isLoaded && db.open && readModels.readiness().readModels === 'following') counts.load(db);
          this.reset();
          for (const [status, count] of counts.entries()) this.set({ status }, count);
        },
      });
    }
  }

  onModuleInit(): void {
    this.appliedEvents.onApplied((events) => this.applied(events));
  }

  /** Times every request Fastify answers, by its route pattern (not its path, which holds ids). */
  observeRequests(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.requests.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }

  /**
   * Tokens and cost of an ended run, under its provider, model and agent. A run that went on to a fallback model
   * counts each model's own tokens and cost under that model.
   */
  private runEnded(event: RecordedEvent): void {
    const { agentId, model, usage, modelAttempts } = event.data as AgentRunSucceeded['data'];
    if (!usage) return;
    const parts = modelAttempts?.length ? withEarlier(modelAttempts, usage) : [{ model: model ?? 'unknown', usage }];
    for (const part of parts) {
      const slash = part.model.indexOf('/');
      const labels = {
        provider: slash < 0 ? 'unknown' : part.model.slice(0, slash),
        model: part.model,
        agent: agentId ?? 'unknown',
      };
      this.tokens.inc({ ...labels, direction: 'input' }, part.usage.inputTokens);
      this.tokens.inc({ ...labels, direction: 'output' }, part.usage.outputTokens);
      if (part.usage.costUsd !== undefined) this.cost.inc(labels, part.usage.costUsd);
    }
  }

  private applied(events: RecordedEvent[]): void {
    for (const counts of this.runCounts) counts.apply(events);
    // The catch-up after a start replays old events: their lag says nothing of now.
    if (this.readModels.readiness().readModels !== 'following') return;
    const now = Date.now();
    for (const event of events) {
      this.events.inc({ type: event.type });
      this.projectionLag.observe(Math.max(0, now - event.recordedAt.getTime()) / 1000);
      if ((AGENT_RUN_ENDINGS as readonly string[]).includes(event.type)) this.runEnded(event);
      if (event.type === 'AgentRunScored') {
        const { agentId, scores } = event.data as AgentRunScored['data'];
        for (const { scorer, score } of scores) this.scores.observe({ agent: agentId, scorer }, score);
      }
      if (event.type === 'WorkflowTriggered') {
        const { trigger, triggeredAt } = event.data as WorkflowTriggered['data'];
        if (trigger.type === 'schedule') {
          this.scheduleLag.observe(Math.max(0, Date.parse(triggeredAt) - Date.parse(trigger.scheduledFor)) / 1000);
        }
      }
    }
  }
}

/**
 * A fallback run's models, and what it used before it last waited for a person (in `usage` but in no attempt of
 * the last stretch), counted under the model it then went on with.
 */
function withEarlier(attempts: ModelAttempt[], usage: Usage): ModelAttempt[] {
  const inAttempts = (key: 'inputTokens' | 'outputTokens') => attempts.reduce((n, a) => n + a.usage[key], 0);
  const earlier: Usage = {
    inputTokens: usage.inputTokens - inAttempts('inputTokens'),
    outputTokens: usage.outputTokens - inAttempts('outputTokens'),
  };
  if (usage.costUsd !== undefined) {
    earlier.costUsd = usage.costUsd - attempts.reduce((n, a) => n + (a.usage.costUsd ?? 0), 0);
  }
  if (earlier.inputTokens <= 0 && earlier.outputTokens <= 0) return attempts;
  return [{ model: attempts[0].model, usage: earlier }, ...attempts];
}

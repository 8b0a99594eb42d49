import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Context, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { isEnded } from '../../domain/run';
import { EventStore, RecordedEvent } from '../../event-store/event-store';
import { contextOf, tracer, withSpanId } from '../../shared/trace-context';
import { WorkflowRunAggregate } from '../../workflows/workflow-run/workflow-run.state';
import { workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';
import { WorkflowRunActors } from './workflow-run-actors';

/** Runs and steps whose spans this instance remembers having recorded. */
const RECORDED_KEPT = 10_000;

/**
 * A workflow run's trace, over events and instances: the run's span and each step's have ids made from the run's
 * id, so whatever handles the run's events (any instance, before or after a restart) acts as their child, and the
 * step's agent run is queued under its step. The spans themselves are recorded once they are over, with the
 * times the run's events give: the run's under the request (or tick) that queued it.
 */
export class WorkflowRunTraces {
  /**
   * Spans recorded by this instance lately, so a repeat of an event records nothing twice; bounded, as a process
   * runs for long (a repeat past it records the span again, with the same ids).
   */
  private readonly recorded = new LRUCache<string, true>({ max: RECORDED_KEPT });

  constructor(
    private readonly runs: WorkflowRunActors,
    private readonly store: EventStore,
  ) {}

  /** The context an event of the run is handled in: its step's span for a step that starts, else the run's. */
  contextOf(event: RecordedEvent, runId: string): Context | undefined {
    // Without tracing, events carry no trace context: nothing to hash.
    if (event.metadata.traceparent === undefined) return undefined;
    const starts = event.type === 'WorkflowStepStarted' || event.type === 'WorkflowMapItemStarted';
    const step = starts ? (event.data.index as number) : undefined;
    return contextOf(event.metadata.traceparent, spanIdOf(runId, step));
  }

  /** Records the spans of the steps that have ended, and of the run once it has. */
  async recordEnded(runId: string, handledIn: Context | undefined): Promise<void> {
    const parent = handledIn && trace.getSpanContext(handledIn);
    if (!parent || !(parent.traceFlags & TraceFlags.SAMPLED) || this.recorded.has(runId)) return;
    const run = await this.runs.read(runId);
    if (!run) return;
    const runContext = contextOf(`00-${parent.traceId}-${spanIdOf(runId)}-01`)!;
    for (const step of run.steps) {
      const key = `${runId}/${step.index}`;
      if (!step.startedAt || !step.endedAt || this.recorded.has(key)) continue;
      this.recorded.set(key, true);
      const span = withSpanId(spanIdOf(runId, step.index), () =>
        tracer().startSpan(
          `workflow_step ${step.index} ${step.agent ?? 'approval'}`,
          {
            startTime: new Date(step.startedAt!),
            attributes: {
              'app.workflow_run.id': runId,
              'app.workflow_step.index': step.index,
              'app.workflow_step.status': step.status,
              ...(step.agent && { 'gen_ai.agent.name': step.agent }),
              ...(step.agentRunId && { 'app.agent_run.id': step.agentRunId }),
            },
          },
          runContext,
        ),
      );
      if (step.error) span.setStatus({ code: SpanStatusCode.ERROR, message: step.error.message });
      span.end(new Date(step.endedAt));
    }
    if (isEnded(run.status) && run.endedAt) await this.recordRun(run);
  }

  private async recordRun(run: WorkflowRunAggregate): Promise<void> {
    this.recorded.set(run.id, true);
    for (const step of run.steps) this.recorded.delete(`${run.id}/${step.index}`);
    // Its parent: the request or tick that queued it, as the run's first event recorded it.
    const [queued] = (await this.store.readStream(workflowRunStream(run.id), { maxCount: 1 })).events;
    const parent = contextOf(queued?.metadata.traceparent);
    if (!parent) return;
    const span = withSpanId(spanIdOf(run.id), () =>
      tracer().startSpan(
        `workflow_run ${run.workflowName}`,
        {
          startTime: new Date(run.createdAt),
          attributes: {
            'app.workflow.id': run.workflowId,
            'app.workflow_run.id': run.id,
            'app.workflow_run.status': run.status,
            'app.workflow_run.trigger': run.trigger.type,
          },
        },
        parent,
      ),
    );
    if (run.error) span.setStatus({ code: SpanStatusCode.ERROR, message: run.error.message });
    span.end(new Date(run.endedAt!));
  }
}

/** The span id of a workflow run, or of one of its steps: 16 hex digits of a hash of the run's id. */
export function spanIdOf(runId: string, step?: number): string {
  return createHash('sha256')
    .update(step === undefined ? runId : `${runId}/${step}`)
    .digest('hex')
    .slice(0, 16);
}

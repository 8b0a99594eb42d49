import { trace } from '@opentelemetry/api';
import type { Agent } from '../../agents/agent';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import type { EndAgentRun } from '../../agents/agent-run/agent-run.commands';
import { SpanStatusCode } from '../../shared/trace-context';

/** The agent run's span, after the semantic conventions for generative AI agents. */
export function runAttributes(run: AgentRunAggregate, agent: Agent | null) {
  const model = run.model || agent?.model || '';
  return {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.id': run.agentId,
    ...(agent && { 'gen_ai.agent.name': agent.name }),
    'gen_ai.provider.name': model.slice(0, model.indexOf('/')),
    'gen_ai.request.model': model.slice(model.indexOf('/') + 1),
    'app.agent_run.id': run.id,
    ...(run.threadId && { 'gen_ai.conversation.id': run.threadId }),
    ...(run.workflowRunId && {
      'app.workflow_run.id': run.workflowRunId,
      'app.workflow_step.index': run.stepIndex ?? 0,
    }),
  };
}

/** The run's span (while tracing is on): its usage and cost, and its error. */
export function runSpanEnded({ outcome, usage }: Omit<EndAgentRun, 'type' | 'executorId'>): void {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return;
  if (usage) {
    span.setAttributes({
      'gen_ai.usage.input_tokens': usage.inputTokens,
      'gen_ai.usage.output_tokens': usage.outputTokens,
    });
    if (usage.costUsd !== undefined) span.setAttribute('app.cost_usd', usage.costUsd);
  }
  if ('error' in outcome) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.message });
    span.setAttribute('error.type', outcome.error.code);
  } else if ('cancelled' in outcome) span.setAttribute('app.agent_run.cancelled', true);
}

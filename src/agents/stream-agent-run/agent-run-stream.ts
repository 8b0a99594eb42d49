import { RecordedEvent } from '../../event-store/event-store';
import { SseWriter } from '../../http/sse';
import { AGENT_RUN_ENDINGS, AgentRunEvent } from '../agent-run/agent-run.events';
import { AgentRunState } from '../agent-run/agent-run.state';
import { agentRunDecider } from '../agent-run/agent-run';
import { toAgentRun } from '../agent-run/agent-run.view';

const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * One client's view of one run: the recorded events turned into `status`, `tool_call` and `tool_result`
 * messages, the text as the model writes it (`delta`), and a last `end` with the whole run. Events may come
 * twice (the replay and the live feed overlap); each revision is sent once.
 */
export class AgentRunStream {
  private state: AgentRunState = null;
  private lastRevision = -1n;
  private sentText = false;

  constructor(private readonly sse: SseWriter) {}

  /**
   * Text as it is written. A client that does not keep up misses some (the `end` carries the whole output), so a
   * slow reader never makes the service buffer without bound.
   */
  delta(text: string): void {
    if (this.state && AGENT_RUN_ENDINGS.includes(this.state.status as never)) return;
    if (this.sse.bufferedBytes > MAX_BUFFERED_BYTES) return;
    this.sentText = true;
    this.sse.send('delta', { text });
  }

  /** Returns true once the run has ended and the stream is closed. */
  recorded(event: RecordedEvent): boolean {
    if (event.revision <= this.lastRevision) return false;
    this.lastRevision = event.revision;
    const domainEvent = { type: event.type, data: event.data } as AgentRunEvent;
    const before = this.state;
    const next = agentRunDecider.evolve(this.state, domainEvent);
    if (!next) return false;
    this.state = next;
    const run = next;
    switch (domainEvent.type) {
      case 'AgentRunQueued':
      case 'AgentRunStarted':
        this.sse.send('status', { status: run.status });
        return false;
      case 'AgentRunCancelRequested':
        this.sse.send('status', { status: run.status, cancelRequested: true });
        return false;
      case 'AgentRunApprovalRequested':
        this.sse.send('status', { status: run.status });
        this.sse.send('approval_requested', { pendingApprovals: domainEvent.data.approvals });
        return false;
      case 'AgentRunApprovalsDecided':
        this.sse.send('approvals_decided', { decisions: domainEvent.data.decisions });
        if (domainEvent.data.resumed) this.sse.send('status', { status: run.status });
        return false;
      case 'AgentRunToolCalled': {
        const { callId: id, tool, input, at: startedAt } = domainEvent.data;
        this.sse.send('tool_call', { id, tool, input, startedAt });
        return false;
      }
      case 'AgentRunToolReturned': {
        const { callId: id, tool, output, error, at: endedAt } = domainEvent.data;
        this.sse.send('tool_result', { id, tool, ...(error === undefined ? { output } : { error }), endedAt });
        return false;
      }
      case 'AgentRunChildRunsStarted': {
        // The calls of other agents, recorded with the children they start (those of older runs came as their own).
        for (const call of run.toolCalls.slice(before?.toolCalls.length ?? 0)) {
          const { id, tool, input, startedAt } = call;
          this.sse.send('tool_call', { id, tool, input, startedAt });
        }
        this.sse.send('status', { status: run.status });
        return false;
      }
      case 'AgentRunChildRunEnded': {
        const { callId: id, tool, output, error, at: endedAt, resumed } = domainEvent.data;
        this.sse.send('tool_result', { id, tool, ...(error === undefined ? { output } : { error }), endedAt });
        if (resumed) this.sse.send('status', { status: run.status });
        return false;
      }
      case 'AgentRunSucceeded':
      case 'AgentRunFailed':
      case 'AgentRunCancelled':
        // A client that saw none of the text as it was written gets the recorded output in one piece.
        if (!this.sentText && run.output) this.sse.send('delta', { text: run.output });
        this.sse.send('status', { status: run.status });
        this.sse.send('end', toAgentRun(run));
        this.sse.end();
        return true;
      default:
        return false;
    }
  }
}

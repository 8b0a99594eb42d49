import type { GuardrailVerdict, Guardrails } from '../../agents/guardrails';
import { taskMessage } from '../../agents/agent-run/task-message';
import { Judge, runChecks, runChecksOnValue } from '../../agents/guardrail-checks/run-checks';

/** A guardrail blocked the task or the answer: the run fails with `guardrail_blocked`. */
export class GuardrailBlocked extends Error {
  constructor(
    readonly stage: 'input' | 'output',
    verdict: GuardrailVerdict,
  ) {
    super(
      `The ${stage} guardrail ${verdict.check} (${verdict.type}) blocked the ${stage === 'input' ? 'task' : 'answer'}: ${verdict.reason}`,
    );
  }
}

type ToolResult = { output: unknown } | { error: string };
type RecordVerdict = (verdict: GuardrailVerdict, callId?: string) => Promise<void>;

/**
 * An agent's guardrails over one run: the task before any model call, each tool's result before the model sees
 * it, and the answer before it is recorded. Every verdict is recorded; what a check redacts is replaced before the
 * text goes on, so the original reaches neither the model nor the log.
 */
export class RunGuardrails {
  constructor(
    private readonly guardrails: Guardrails,
    private readonly record: RecordVerdict,
    private readonly judge?: Judge,
  ) {}

  /** Whether the answer must be checked before anyone sees it: its text is then not streamed as it is written. */
  get holdsOutput(): boolean {
    return (this.guardrails.output ?? []).some((check) => check.action !== 'warn');
  }

  /**
   * The task and context to send: as given, or as one redacted message; throws `GuardrailBlocked`. `queued`: the
   * verdicts recorded as the run was queued, when its checks that need no judge ran then: a block among them stops
   * the run here, and only the judges are left to ask.
   */
  async input(
    task: string,
    context: Record<string, unknown>,
    queued?: GuardrailVerdict[],
  ): Promise<{ task: string; context: Record<string, unknown> }> {
    const blocked = queued?.find((verdict) => verdict.stage === 'input' && verdict.verdict === 'blocked');
    if (blocked) throw new GuardrailBlocked('input', blocked);
    const checks = this.guardrails.input ?? [];
    if (!checks.length) return { task, context };
    const message = taskMessage(task, context);
    const checked = await runChecks(message, checks, 'input', this.judge, queued ? 'judges' : 'all');
    await this.recordAll(checked.verdicts);
    if (checked.blocked) throw new GuardrailBlocked('input', checked.blocked);
    return checked.text === message ? { task, context } : { task: checked.text, context: {} };
  }

  /** A tool's result as the model gets it: withheld when blocked (the model is told why), else redacted. */
  async toolResult(callId: string, result: ToolResult): Promise<ToolResult> {
    const checks = this.guardrails.toolResults ?? [];
    if (!checks.length) return result;
    const ran = 'error' in result ? result.error : result.output;
    const checked = await runChecksOnValue(ran, checks, 'toolResults', this.judge);
    await this.recordAll(checked.verdicts, callId);
    if (checked.blocked) return { output: { blocked: true, reason: checked.blocked.reason } };
    return 'error' in result ? { error: checked.value as string } : { output: checked.value };
  }

  /** The answer as recorded: redacted, its object too; or why it is blocked (the run fails, its usage counted). */
  async output(
    output: string,
    outputObject: unknown,
  ): Promise<{ output: string; outputObject: unknown } | { blocked: GuardrailBlocked }> {
    const checks = this.guardrails.output ?? [];
    if (!checks.length) return { output, outputObject };
    const checked = await runChecks(output, checks, 'output', this.judge);
    await this.recordAll(checked.verdicts);
    if (checked.blocked) return { blocked: new GuardrailBlocked('output', checked.blocked) };
    if (checked.text === output || outputObject === undefined) return { output: checked.text, outputObject };
    // The object is the answer's text parsed: what was redacted there is redacted in it, the judges not asked
    // again. A judge's redaction took the whole answer, so there is no object left.
    if (checked.verdicts.some((verdict) => verdict.type === 'agent' && verdict.verdict === 'redacted'))
      return { output: checked.text, outputObject: null };
    const redacting = checks.filter((check) => check.type !== 'agent');
    return { output: checked.text, outputObject: (await runChecksOnValue(outputObject, redacting, 'output')).value };
  }

  private async recordAll(verdicts: GuardrailVerdict[], callId?: string): Promise<void> {
    for (const verdict of verdicts) await this.record(verdict, callId);
  }
}

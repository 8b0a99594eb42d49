import type { AgentRun } from '../api/schema';

const STAGES = { input: 'the task', output: 'the answer', toolResults: 'a tool result' } as const;

/** What the agent's guardrails made of the run: each check, where it ran, and what it did (never the text it found). */
export function GuardrailVerdicts({ verdicts }: { verdicts: AgentRun['guardrails'] }) {
  return (
    <section aria-labelledby="guardrails-heading">
      <h2 id="guardrails-heading">Guardrails</h2>
      <ul class="guardrail-verdicts" data-testid="run-guardrails">
        {verdicts.map((verdict, i) => (
          <li key={i} class={`verdict-${verdict.verdict}`}>
            <strong>{verdict.verdict}</strong>: {verdict.type} check {verdict.check} on{' '}
            {STAGES[verdict.stage as keyof typeof STAGES] ?? verdict.stage}
            {verdict.callId ? ` (call ${verdict.callId})` : ''}
            {verdict.reason ? `: ${verdict.reason}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

import type { ProblemError } from '../api/client';
import { listMessages } from './form-problem';
import { ProblemView } from '../components/problem-view';
import { HANDOFF_INPUT_LABELS, HandoffDraft, HandoffInput, MAX_HANDOFFS } from './handoffs-draft';
import type { ActiveAgents } from './use-active-agents';

const INPUTS = Object.keys(HANDOFF_INPUT_LABELS) as HandoffInput[];

/** One chosen or choosable agent: its checkbox and, once chosen, what it is sent. */
function HandoffChoice({
  name,
  chosen,
  onPick,
  onInput,
  code,
}: {
  name: string;
  chosen: HandoffDraft | undefined;
  onPick: (on: boolean) => void;
  onInput: (input: HandoffInput) => void;
  code?: boolean;
}) {
  return (
    <li>
      <label class="checkbox">
        <input type="checkbox" checked={!!chosen} onChange={(e) => onPick(e.currentTarget.checked)} />{' '}
        {code ? <code>{name}</code> : <strong>{name}</strong>}
      </label>
      {chosen && (
        <label class="handoff-input">
          sent{' '}
          <select
            value={chosen.input}
            onChange={(e) => onInput(e.currentTarget.value as HandoffInput)}
            aria-label={`What ${name} is sent`}
          >
            {INPUTS.map((input) => (
              <option key={input} value={input}>
                {HANDOFF_INPUT_LABELS[input]}
              </option>
            ))}
          </select>
        </label>
      )}
    </li>
  );
}

/**
 * The agents this one may hand the conversation to (`transfer_to_<name>` tools), each with what it is sent: the
 * whole conversation, the last user message, or a summary the handing-off model writes. The agent itself is not
 * offered. Chosen agents that the list does not hold stay chosen, listed apart, until unchecked.
 */
export function HandoffsPicker({
  handoffs,
  onChange,
  agents,
  selfId,
  selfName,
  error,
  idPrefix,
}: {
  handoffs: HandoffDraft[];
  onChange: (handoffs: HandoffDraft[]) => void;
  agents: ActiveAgents;
  selfId?: string;
  selfName: string;
  error: ProblemError | null;
  idPrefix: string;
}) {
  const errorId = `${idPrefix}-handoffs-error`;
  const others = agents.agents.filter((agent) => agent.id !== selfId && agent.name !== selfName);
  const listed = new Set(others.map((agent) => agent.name));
  const unlisted = handoffs.filter((handoff) => !listed.has(handoff.agent));
  const chosen = (name: string) => handoffs.find((handoff) => handoff.agent === name);
  const pick = (name: string, on: boolean) =>
    onChange(
      on
        ? chosen(name)
          ? handoffs
          : [...handoffs, { agent: name, input: 'all' }]
        : handoffs.filter((handoff) => handoff.agent !== name),
    );
  const setInput = (name: string, input: HandoffInput) =>
    onChange(handoffs.map((handoff) => (handoff.agent === name ? { ...handoff, input } : handoff)));
  const messages = listMessages(
    error,
    'handoffs',
    handoffs.map((entry) => entry.agent),
  );

  return (
    <fieldset aria-describedby={messages.length ? errorId : undefined}>
      <legend>Handoffs</legend>
      <p class="hint">
        Agents this agent may hand the conversation to (up to {MAX_HANDOFFS}): its model sees a{' '}
        <code>transfer_to_&lt;name&gt;</code> tool for each, and the agent handed to answers the run. Each is sent the
        whole conversation, the last user message only, or a summary the model writes.
      </p>
      <ProblemView error={agents.error} />
      <ul class="tool-list">
        {others.map((agent) => (
          <HandoffChoice
            key={agent.id}
            name={agent.name}
            chosen={chosen(agent.name)}
            onPick={(on) => pick(agent.name, on)}
            onInput={(input) => setInput(agent.name, input)}
          />
        ))}
      </ul>
      {!agents.loading && others.length === 0 && <p class="muted">No other active agents.</p>}
      {!agents.complete && <p class="muted">Only the first agents are listed; a chosen agent stays chosen.</p>}
      {unlisted.length > 0 && !agents.loading && (
        <fieldset class="tool-group">
          <legend>Chosen but no active agent listed has this name now</legend>
          <ul class="tool-list">
            {unlisted.map((handoff) => (
              <HandoffChoice
                key={handoff.agent}
                name={handoff.agent}
                chosen={handoff}
                onPick={(on) => pick(handoff.agent, on)}
                onInput={(input) => setInput(handoff.agent, input)}
                code
              />
            ))}
          </ul>
        </fieldset>
      )}
      {messages.length > 0 && (
        <div class="field-error" id={errorId}>
          {messages.join('; ')}
        </div>
      )}
    </fieldset>
  );
}

import type { ProblemError } from '../api/client';
import type { AgentListItem } from '../api/schema';
import { Field } from '../components/field';

interface AgentNameFieldProps {
  id: string;
  label: string;
  /** The field's `errors[].path`. */
  path: string;
  error: ProblemError | null;
  agents: AgentListItem[];
  /** The name chosen; empty: the first agent. */
  value: string;
  onChange: (name: string) => void;
}

/** A choice of one active agent, by name (a judge's agent, an experiment's). */
export function AgentNameField({ id, label, path, error, agents, value, onChange }: AgentNameFieldProps) {
  return (
    <Field id={id} label={label} path={path} error={error}>
      {(describedBy, invalid) => (
        <select
          id={id}
          value={value || agents[0]?.name}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          {agents.map((choice) => (
            <option key={choice.id} value={choice.name}>
              {choice.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

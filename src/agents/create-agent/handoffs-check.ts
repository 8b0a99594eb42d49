import type { FieldError } from '../../shared/validation-failed';
import type { AgentDirectory } from '../agent-directory.port';
import { HANDOFF_INPUTS, MAX_HANDOFFS } from '../handoffs';

const NAME_LENGTH = 200;

/**
 * The problems of a `handoffs` value, each by its path (`handoffs[1].input`): each entry names an active agent other
 * than the agent itself (by a name, or `{agent, input}`), once.
 */
export function handoffsErrors(
  value: unknown,
  selfName: string | undefined,
  agents: Pick<AgentDirectory, 'hasAgentNamed'>,
): FieldError[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return [{ path: 'handoffs', message: 'handoffs must be a list of agent names' }];
  if (value.length > MAX_HANDOFFS) {
    return [{ path: 'handoffs', message: `handoffs may name at most ${MAX_HANDOFFS} agents` }];
  }
  const seen = new Set<string>();
  return value.flatMap((entry: unknown, i): FieldError[] => {
    const at = `handoffs[${i}]`;
    const spec = typeof entry === 'string' ? { agent: entry } : entry;
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
      return [
        { path: at, message: 'must be an agent name, or {"agent": name, "input": "all" | "last_user" | "summary"}' },
      ];
    }
    const { agent, input, ...rest } = spec as Record<string, unknown>;
    const errors: FieldError[] = Object.keys(rest).map((key) => ({
      path: `${at}.${key}`,
      message: 'is not a field of a handoff',
    }));
    if (input !== undefined && !(HANDOFF_INPUTS as readonly unknown[]).includes(input)) {
      errors.push({ path: `${at}.input`, message: `must be one of ${HANDOFF_INPUTS.join(', ')}` });
    }
    const path = typeof entry === 'string' ? at : `${at}.agent`;
    if (typeof agent !== 'string' || !agent.trim() || agent.length > NAME_LENGTH) {
      errors.push({ path, message: `must be an agent's name (1 to ${NAME_LENGTH} characters)` });
    } else if (agent === selfName) {
      errors.push({ path, message: 'an agent cannot hand off to itself' });
    } else if (seen.has(agent)) {
      errors.push({ path, message: `"${agent}" is named twice` });
    } else if (!agents.hasAgentNamed(agent)) {
      errors.push({ path, message: `No active agent is named "${agent}" (GET /v1/agents lists them)` });
    }
    if (typeof agent === 'string') seen.add(agent);
    return errors;
  });
}

import type { Agent, Provider } from '../api/schema';
import { FieldProblem, parseCount } from './form-problem';
import { checkObjectSchema } from './json-schema-check';

/** An agent as its form holds it: every field the API takes, as typed. */
export interface AgentDraft {
  name: string;
  provider: string;
  modelName: string;
  instructions: string;
  tools: string[];
  approvalRequired: string[];
  /** JSON text; blank: free-text answers. */
  outputSchema: string;
  maxMessages: string;
  maxSteps: string;
}

/**
 * The paths whose messages the agent form shows beside a field, for the problem view to leave to them (the tools'
 * messages stay at the foot of the form, by their paths).
 */
export const AGENT_PATHS = ['name', 'model', 'instructions', 'outputSchema', 'memory.maxMessages', 'maxSteps'];

/** A draft of a new agent, or of an existing one to edit. */
export function agentDraft(agent?: Agent): AgentDraft {
  if (!agent) {
    return {
      name: '',
      provider: '',
      modelName: '',
      instructions: '',
      tools: [],
      approvalRequired: [],
      outputSchema: '',
      maxMessages: '50',
      maxSteps: '10',
    };
  }
  const slash = agent.model.indexOf('/');
  return {
    name: agent.name,
    provider: agent.model.slice(0, slash),
    modelName: agent.model.slice(slash + 1),
    instructions: agent.instructions,
    tools: agent.tools,
    approvalRequired: agent.approvalRequired,
    outputSchema: agent.outputSchema ? JSON.stringify(agent.outputSchema, null, 2) : '',
    maxMessages: String(agent.memory.maxMessages),
    maxSteps: String(agent.maxSteps),
  };
}

/** The provider a new agent starts with: a configured one that listed models, else any configured one. */
export function defaultProvider(providers: Provider[]): Provider | undefined {
  return providers.find((p) => p.configured && p.models?.length) ?? providers.find((p) => p.configured) ?? providers[0];
}

/**
 * The draft as the API takes it, with what the form can tell is wrong before sending (each problem by the path the
 * service would name). A blank output schema is `null`: free text.
 */
export function agentBody(draft: AgentDraft) {
  const problems: FieldProblem[] = [];
  if (!draft.name.trim()) problems.push({ path: 'name', message: 'name must not be empty' });
  else if (draft.name.length > 200) problems.push({ path: 'name', message: 'name must be at most 200 characters' });
  if (!draft.provider) problems.push({ path: 'model', message: 'choose a provider' });
  else if (!draft.modelName.trim() || /\s/.test(draft.modelName.trim()))
    problems.push({ path: 'model', message: 'model must name a model, e.g. "gpt-4o-mini", without spaces' });
  const maxSteps = parseCount(draft.maxSteps, 'maxSteps', 1, 100, problems);
  const maxMessages = parseCount(draft.maxMessages, 'memory.maxMessages', 0, 1000, problems);
  let outputSchema: Record<string, unknown> | null = null;
  if (draft.outputSchema.trim()) {
    const check = checkObjectSchema(draft.outputSchema);
    if (check.ok) outputSchema = check.schema;
    else problems.push({ path: 'outputSchema', message: check.message });
  }
  const body = {
    name: draft.name,
    model: `${draft.provider}/${draft.modelName.trim()}`,
    instructions: draft.instructions,
    tools: draft.tools,
    approvalRequired: draft.approvalRequired,
    outputSchema,
    memory: { maxMessages },
    maxSteps,
  };
  return { body, problems };
}

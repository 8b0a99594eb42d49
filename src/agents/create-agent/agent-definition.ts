import { namespaceTemplateProblem } from '../../shared/memory-namespace';
import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import { objectSchemaErrors } from '../../shared/json-schema';
import { AgentDefinition } from '../agent';
import { parseModelId } from '../../models/model-id';
import { ToolRegistry } from '../../tools/tool-registry';
import { guardrailsErrors, judgeErrors } from './guardrails-check';
import { handoffsErrors } from './handoffs-check';
import { agentNamedBy } from '../agent-tool';
import type { AgentDirectory } from '../agent-directory.port';
import type { LiveScorer } from '../live-scorers';
import type { ScorerNames } from '../scorer-names.port';

/**
 * What the DTO cannot check alone: the guardrails' shape, patterns and judges, the model and each fallback model name a
 * known provider (one not configured is still accepted: its runs fail with `provider_not_configured`), every tool is
 * one the service offers now or an active agent (`agent:<name>`, the agent's own name included), approvals are not
 * asked on calling an agent, and `outputSchema` is a
 * JSON Schema of at most 64 KB, within the bounds of a safe check. An update checks only what it changes (a field
 * undefined: not checked), so an agent whose tool has gone can still change.
 */
export async function checkAgentDefinition(
  definition: Partial<AgentDefinition>,
  { registry, agents, scorers }: DefinitionChecks,
): Promise<void> {
  const { name, model, tools, outputSchema, fallbackModels, guardrails, approvalRequired, handoffs } = definition;
  const errors: FieldError[] = [];
  errors.push(...(await outputSchemaErrors(outputSchema)));
  const parsed = model === undefined ? undefined : parseModelId(model);
  if (typeof parsed === 'string') errors.push({ path: 'model', message: parsed });
  (fallbackModels ?? []).forEach((id, i) => {
    const fallback = parseModelId(id);
    if (typeof fallback === 'string') errors.push({ path: `fallbackModels[${i}]`, message: fallback });
  });
  (tools ?? []).forEach((id, i) => {
    const agent = agentNamedBy(id);
    // An agent may name itself (recursion, bounded by RUN_MAX_DEPTH).
    if (agent !== undefined && agent !== name && !agents.hasAgentNamed(agent)) {
      errors.push({ path: `tools[${i}]`, message: `No active agent is named "${agent}" (GET /v1/agents lists them)` });
    } else if (agent === undefined && !registry.isKnown(id)) {
      errors.push({ path: `tools[${i}]`, message: `"${id}" is not a known tool (GET /v1/tools lists them)` });
    }
  });
  (approvalRequired ?? []).forEach((id, i) => {
    if (agentNamedBy(id) === undefined) return;
    const message = `"${id}" is an agent: approvals are asked on the tools of the agent's own runs, not on calling it`;
    errors.push({ path: `approvalRequired[${i}]`, message });
  });
  errors.push(...guardrailsErrors(guardrails), ...judgeErrors(guardrails, name, agents));
  errors.push(...handoffsErrors(handoffs, name, agents));
  errors.push(...liveScorersErrors(definition.scorers, scorers));
  errors.push(...memoryErrors(definition.memory));
  errors.push(...(await objectSchemaErrors('memory.working.schema', definition.memory?.working?.schema)));
  if (errors.length) throw new ValidationFailed(errors);
}

/** What an agent's definition is checked against: the tools offered, the active agents and the active scorers. */
export interface DefinitionChecks {
  registry: ToolRegistry;
  agents: Pick<AgentDirectory, 'hasAgentNamed'>;
  scorers: ScorerNames;
}

/** Each of an agent's scorers names an active scorer, once. */
function liveScorersErrors(entries: LiveScorer[] | undefined, scorers: ScorerNames): FieldError[] {
  return (entries ?? []).flatMap(({ scorer }, i) => {
    const path = `scorers[${i}].scorer`;
    if (entries!.findIndex((other) => other.scorer === scorer) !== i)
      return [{ path, message: `"${scorer}" is named twice` }];
    if (scorers.hasActiveScorerNamed(scorer)) return [];
    return [{ path, message: `No active scorer is named "${scorer}" (GET /v1/scorers lists them)` }];
  });
}

/**
 * `outputSchema` (of an agent or a run): null or undefined, or a JSON Schema of at most 64 KB whose root is an
 * object (`"type": "object"`), as providers' JSON-schema modes require, so `outputObject` is always an object.
 * A problem inside it (a pattern, a part that expands too far) is named by its path in the schema.
 */
export function outputSchemaErrors(outputSchema: unknown): Promise<FieldError[]> {
  return objectSchemaErrors('outputSchema', outputSchema);
}

/** A memory namespace that is a template of one, and recall only with a namespace to recall from. */
function memoryErrors(memory: AgentDefinition['memory'] | undefined): FieldError[] {
  if (!memory) return [];
  const errors: FieldError[] = [];
  const problem = memory.namespace === undefined ? undefined : namespaceTemplateProblem(memory.namespace);
  if (problem) errors.push({ path: 'memory.namespace', message: `memory.namespace ${problem}` });
  if (memory.tools && memory.namespace === undefined) {
    errors.push({ path: 'memory.tools', message: 'memory.tools needs memory.namespace: the namespace they work on' });
  }
  if (memory.recall && memory.namespace === undefined) {
    errors.push({
      path: 'memory.recall',
      message: 'memory.recall needs memory.namespace: the namespace to recall from',
    });
  }
  return errors;
}

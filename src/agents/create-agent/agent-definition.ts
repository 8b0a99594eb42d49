import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import { jsonSchemaProblem } from '../../shared/json-schema';
import { AgentDefinition } from '../agent';
import { parseModelId } from '../../models/model-id';
import { ToolRegistry } from '../../tools/tool-registry';

/**
 * What the DTO cannot check alone: the model names a known provider (one not configured is still accepted: its
 * runs fail with `provider_not_configured`), every tool is one the service offers now, and `outputSchema` is a
 * JSON Schema of at most 64 KB. An update checks only what it changes (a field undefined: not checked), so an
 * agent whose tool has gone can still change.
 */
export function checkAgentDefinition(
  { model, tools, outputSchema }: Partial<AgentDefinition>,
  registry: ToolRegistry,
): void {
  const errors: FieldError[] = [];
  errors.push(...outputSchemaErrors(outputSchema));
  const parsed = model === undefined ? undefined : parseModelId(model);
  if (typeof parsed === 'string') errors.push({ path: 'model', message: parsed });
  (tools ?? []).forEach((id, i) => {
    if (!registry.isKnown(id)) {
      errors.push({ path: `tools[${i}]`, message: `"${id}" is not a known tool (GET /v1/tools lists them)` });
    }
  });
  if (errors.length) throw new ValidationFailed(errors);
}

/**
 * `outputSchema` (of an agent or a run): null or undefined, or a JSON Schema of at most 64 KB whose root is an
 * object (`"type": "object"`), as providers' JSON-schema modes require, so `outputObject` is always an object.
 */
export function outputSchemaErrors(outputSchema: unknown): FieldError[] {
  if (outputSchema === undefined || outputSchema === null) return [];
  const problem =
    jsonSchemaProblem(outputSchema) ??
    ((outputSchema as { type?: unknown }).type === 'object' ? undefined : 'must have "type": "object" at its root');
  return problem ? [{ path: 'outputSchema', message: `outputSchema ${problem}` }] : [];
}

import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import { parseModelId } from '../../models/model-id';
import { ToolRegistry } from '../../tools/tool-registry';

/**
 * What the DTO cannot check alone: the model names a known provider (one not configured is still accepted: its
 * runs fail with `provider_not_configured`), and every tool is one the service offers now. An update checks only
 * what it changes (`model` or `tools` undefined: not checked), so an agent whose tool has gone can still change.
 */
export function checkAgentDefinition(
  model: string | undefined,
  tools: string[] | undefined,
  registry: ToolRegistry,
): void {
  const errors: FieldError[] = [];
  const parsed = model === undefined ? undefined : parseModelId(model);
  if (typeof parsed === 'string') errors.push({ path: 'model', message: parsed });
  (tools ?? []).forEach((id, i) => {
    if (!registry.isKnown(id)) {
      errors.push({ path: `tools[${i}]`, message: `"${id}" is not a known tool (GET /v1/tools lists them)` });
    }
  });
  if (errors.length) throw new ValidationFailed(errors);
}

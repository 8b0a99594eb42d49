import { FieldError, ValidationFailed } from '../../http/problem';
import { parseModelId } from '../../models/model-id';
import { ToolRegistry } from '../../tools/tool-registry';

/**
 * What the DTO cannot check alone: the model names a known provider (one not configured is still accepted: its
 * runs fail with `provider_not_configured`), and every tool is one the service offers now.
 */
export function checkAgentDefinition(model: string, tools: string[], registry: ToolRegistry): void {
  const errors: FieldError[] = [];
  const parsed = parseModelId(model);
  if (typeof parsed === 'string') errors.push({ path: 'model', message: parsed });
  tools.forEach((id, i) => {
    if (!registry.isKnown(id)) {
      errors.push({ path: `tools[${i}]`, message: `"${id}" is not a known tool (GET /v1/tools lists them)` });
    }
  });
  if (errors.length) throw new ValidationFailed(errors);
}

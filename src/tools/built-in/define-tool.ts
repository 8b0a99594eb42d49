import { z } from 'zod';
import { ExecutableTool, ToolFailure } from '../executable-tool';

/** A built-in tool whose input is checked against a zod schema, which also gives its JSON Schema. */
export function defineTool<Schema extends z.ZodObject>(definition: {
  id: string;
  description: string;
  input: Schema;
  run(input: z.output<Schema>, signal: AbortSignal): Promise<unknown>;
}): ExecutableTool {
  const { $schema: _, ...inputSchema } = z.toJSONSchema(definition.input, { io: 'input' });
  return {
    id: definition.id,
    description: definition.description,
    inputSchema,
    async execute(input, { signal }) {
      const parsed = definition.input.safeParse(input ?? {});
      if (!parsed.success)
        throw new ToolFailure(`Invalid input for ${definition.id}: ${z.prettifyError(parsed.error)}`);
      return definition.run(parsed.data, signal);
    },
  };
}

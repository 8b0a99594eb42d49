/** What `GET /v1/tools` shows of a tool. */
export interface ToolDefinition {
  /** `current_time`, `http_get`, or `mcp:<server>/<tool>`. */
  id: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  inputSchema: Record<string, unknown>;
}

/** A tool a run can call. */
export interface RunnableTool extends ToolDefinition {
  /** The name the model sees: letters, digits, `_` and `-` only, at most 64 characters, unique within a run. */
  modelName: string;
  /** Resolves with a JSON-serialisable result; rejects when the tool fails or has gone away. */
  execute(input: unknown, options: { signal: AbortSignal }): Promise<unknown>;
  /** Set on `agent:<name>` tools: a call starts a child run of this agent instead of `execute`. */
  agent?: { id: string; name: string };
  /** Set on `transfer_to:<name>` tools: a call hands the conversation to this agent, with `input` of it. */
  handoff?: { id: string; name: string; input: 'all' | 'last_user' | 'summary' };
}

/** What `GET /v1/tools` shows of a tool. */
export interface ToolDefinition {
  /** `current_time`, `http_get`, or `mcp:<server>/<tool>`. */
  id: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  inputSchema: Record<string, unknown>;
}

/** A tool as `GET /v1/tools` lists it: whether a call can be made now, and why not. */
export interface ToolListing extends ToolDefinition {
  available: boolean;
  /** Why it is not available (its MCP server refused, away or not connected yet); null while it is. */
  unavailableReason: string | null;
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
  /** Set while the tool's MCP server is not connected: a call is a tool error saying this. */
  unavailableReason?: string;
}

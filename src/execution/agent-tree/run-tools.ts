import { Injectable } from '@nestjs/common';
import type { Agent } from '../../agents/agent';
import { agentNamedBy, agentToolId } from '../../agents/agent-tool';
import type { ExecutableTool } from '../../tools/executable-tool';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import type { RunnableTool } from '../../tools/tool';
import { ToolRegistry } from '../../tools/tool-registry';

/** The tools of a run: the registry's (built-in, MCP), and other agents named as `agent:<name>`. */
@Injectable()
export class RunTools {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly agents: AgentsReadModel,
  ) {}

  /** Each with a model name unique within the run; `missing`: the ids not available now (an agent archived). */
  resolve(ids: string[]): { tools: RunnableTool[]; missing: string[] } {
    return this.registry.resolve(ids, (id) => {
      const name = agentNamedBy(id);
      const agent = name === undefined ? undefined : this.agents.activeAgentNamed(name);
      return agent && agentTool(agent);
    });
  }
}

/** What the model sends another agent: the task, and facts it may use. */
export const AGENT_TOOL_INPUT = {
  type: 'object',
  properties: {
    task: { type: 'string', description: 'What the agent is to do, in plain words.' },
    context: { type: 'object', description: 'Facts the agent may use (optional).' },
  },
  required: ['task'],
  additionalProperties: false,
} as const;

/** The longest a description taken from the instructions (for an agent without one) is. */
const DESCRIPTION_FROM_INSTRUCTIONS = 500;

/** An agent as a tool of another: described by its `description` (else the start of its instructions). */
export function agentTool(agent: Agent): ExecutableTool {
  const described = agent.description || agent.instructions.slice(0, DESCRIPTION_FROM_INSTRUCTIONS);
  return {
    id: agentToolId(agent.name),
    description: described || `Asks the agent "${agent.name}" to do a task, and answers with its answer.`,
    inputSchema: AGENT_TOOL_INPUT,
    agent: { id: agent.id, name: agent.name },
    execute: () => Promise.reject(new Error(`A call of agent "${agent.name}" starts a child run; it is not executed`)),
  };
}

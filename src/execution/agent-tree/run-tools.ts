import { Injectable } from '@nestjs/common';
import type { Agent } from '../../agents/agent';
import { agentNamedBy, agentToolId } from '../../agents/agent-tool';
import { HandoffInput, handoffOf, handoffToolId } from '../../agents/handoffs';
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

  /**
   * The agent's tools and its handoffs' `transfer_to_<name>` tools, each with a model name unique within the run;
   * `missing`: the ids not available now (an MCP server away, an agent archived).
   */
  forAgent(agent: Pick<Agent, 'tools' | 'handoffs'>): { tools: RunnableTool[]; missing: string[] } {
    const handoffs = new Map((agent.handoffs ?? []).map(handoffOf).map((h) => [handoffToolId(h.agent), h]));
    return this.registry.resolve([...agent.tools, ...handoffs.keys()], (id) => {
      const handoff = handoffs.get(id);
      const name = handoff?.agent ?? agentNamedBy(id);
      const named = name === undefined ? undefined : this.agents.activeAgentNamed(name);
      if (!named) return undefined;
      return handoff ? transferTool(named, handoff.input) : agentTool(named);
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

/** A handoff as a tool: a call hands the conversation to `agent`; with `input: "summary"` the model writes one. */
function transferTool(agent: Agent, input: HandoffInput): ExecutableTool {
  const about = agent.description ? ` (${agent.description})` : '';
  const summary = {
    summary: { type: 'string', description: 'What the next agent needs to know of the conversation so far.' },
  };
  return {
    id: handoffToolId(agent.name),
    description: `Hands the conversation over to the agent "${agent.name}"${about}, which answers from here on.`,
    inputSchema: {
      type: 'object',
      properties: input === 'summary' ? summary : {},
      ...(input === 'summary' && { required: ['summary'] }),
      additionalProperties: false,
    },
    handoff: { id: agent.id, name: agent.name, input },
    execute: () => Promise.reject(new Error(`A transfer to "${agent.name}" is a handoff; it is not executed`)),
  };
}

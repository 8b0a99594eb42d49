import { Injectable } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../agents/agent';
import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { AppliedEvents } from '../../read-models/applied-events';
import { agentToolName, workflowToolName } from '../../shared/protocol-names';
import { Workflow, isAgentStep } from '../../workflows/workflow/workflow.state';
import { WorkflowsReadModel } from '../../workflows/queries/workflows.read-model';

/** One tool of the MCP server: an active agent or a workflow not archived, and how it is offered. */
export type McpEntry = { tool: Tool } & ({ kind: 'agent'; agent: Agent } | { kind: 'workflow'; workflow: Workflow });

/** The events that change the tool list: an agent's or a workflow's creation, update (a rename) or archiving. */
const CATALOGUE_EVENTS = new Set([
  'AgentCreated',
  'AgentUpdated',
  'AgentArchived',
  'WorkflowCreated',
  'WorkflowUpdated',
  'WorkflowArchived',
]);

const PAGE = 500;

/**
 * The MCP server's tools, as the read models show the agents and workflows: built when first asked for after a
 * change, and told to the listeners (the open sessions, which send `notifications/tools/list_changed`) on each
 * change the read models apply, whichever instance recorded it.
 */
@Injectable()
export class McpCatalogue {
  private entries: Map<string, McpEntry> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly agents: AgentsReadModel,
    private readonly workflows: WorkflowsReadModel,
    applied: AppliedEvents,
  ) {
    applied.onApplied((events) => {
      if (!events.some((event) => CATALOGUE_EVENTS.has(event.type))) return;
      this.entries = undefined;
      for (const listener of this.listeners) listener();
    });
  }

  /** Calls `listener` after each change of the tool list; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tools(): Tool[] {
    return [...this.catalogue().values()].map((entry) => entry.tool);
  }

  find(name: string): McpEntry | undefined {
    return this.catalogue().get(name);
  }

  private catalogue(): Map<string, McpEntry> {
    if (this.entries) return this.entries;
    const entries = new Map<string, McpEntry>();
    for (const agent of this.everyOne((after) => this.agents.list({ status: 'active' }, after, PAGE))) {
      const full = this.agents.get(agent.id);
      if (!full) continue;
      const tool = agentTool(agentToolName(full.name), full);
      entries.set(tool.name, { tool, kind: 'agent', agent: full });
    }
    // Workflow names need not be unique: the oldest workflow of a name has the plain tool name, the others a hash.
    for (const workflow of this.everyOne((after) => this.workflows.list({}, after, PAGE))) {
      const plain = workflowToolName(workflow.name);
      const tool = workflowTool(entries.has(plain) ? workflowToolName(workflow.name, workflow.id) : plain, workflow);
      entries.set(tool.name, { tool, kind: 'workflow', workflow });
    }
    return (this.entries = entries);
  }

  private *everyOne<T extends { id: string }>(page: (after: string) => { items: T[]; nextCursor: string | null }) {
    let after = '';
    for (;;) {
      const { items, nextCursor } = page(after);
      yield* items;
      if (!nextCursor || items.length === 0) return;
      after = items[items.length - 1].id;
    }
  }
}

function agentTool(name: string, agent: Agent): Tool {
  const objectOutput = agent.outputSchema?.type === 'object';
  return {
    name,
    title: agent.name,
    description: agent.description || agent.instructions.slice(0, 1000),
    inputSchema: {
      type: 'object',
      properties: {
        task: { type: 'string', minLength: 1, maxLength: 100_000, description: 'What the agent is to do.' },
        context: { type: 'object', description: 'Free-form JSON the model gets with the task.' },
        threadId: { type: 'string', description: "A thread of this agent's to continue (`thread_…`)." },
      },
      required: ['task'],
      additionalProperties: false,
    },
    ...(objectOutput && { outputSchema: agent.outputSchema as Tool['outputSchema'] }),
    annotations: { title: agent.name, readOnlyHint: false, openWorldHint: true },
  };
}

function workflowTool(name: string, workflow: Workflow): Tool {
  const agents = [...new Set(workflow.steps.flatMap((step) => (isAgentStep(step) ? [step.agent] : [])))];
  const steps = `${workflow.steps.length} step${workflow.steps.length === 1 ? '' : 's'}`;
  const description = `Runs the workflow "${workflow.name}" (${steps}${agents.length ? `, agents ${agents.join(', ')}` : ''}) and answers with its output.`;
  const inputSchema = workflow.inputSchema ?? {
    type: 'object',
    properties: { input: { type: 'object', description: 'The run input (`{{input.…}}` in its steps).' } },
    additionalProperties: false,
  };
  return {
    name,
    title: workflow.name,
    description,
    inputSchema: inputSchema as Tool['inputSchema'],
    annotations: { title: workflow.name, readOnlyHint: false, openWorldHint: true },
  };
}

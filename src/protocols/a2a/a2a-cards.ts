import { AGENT_CARD_PATH, type AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { Agent } from '../../agents/agent';
import { a2aPath } from '../../shared/protocol-names';

/** The A2A versions `POST /a2a/{agentName}` speaks: 1.0, and 0.3 for clients of the SDK's compatibility mode. */
const VERSIONS = ['1.0', '0.3'];
const BEARER = 'bearer';
const APPROVALS =
  'A task that needs a person (a tool call to approve) is input-required: the approval is made through the ' +
  "service's HTTP API or console, not over A2A, and the task then goes on.";

/** With API keys on: `Authorization: Bearer <key>`, as for the HTTP API. */
const SECURITY_SCHEMES: AgentCard['securitySchemes'] = {
  [BEARER]: {
    scheme: {
      $case: 'httpAuthSecurityScheme',
      value: { scheme: 'Bearer', bearerFormat: 'API key', description: 'An API key of the service.' },
    },
  },
};

/** What each card has, whatever it describes. */
function cardBase(name: string, description: string, url: string, keysOn: boolean) {
  return {
    name,
    description,
    version: '1',
    provider: { organization: 'workflows-agents-service', url },
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: keysOn ? SECURITY_SCHEMES : {},
    securityRequirements: keysOn ? [{ schemes: { [BEARER]: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    signatures: [],
  };
}

/** An agent's card: the agent as one skill, reached at `/a2a/{agentName}`. */
export function agentCard(agent: Agent, origin: string, keysOn: boolean): AgentCard {
  const url = `${origin}${a2aPath(agent.name)}`;
  const description = `${agent.description || agent.instructions.slice(0, 500)}\n\n${APPROVALS}`.trim();
  return {
    ...cardBase(agent.name, description, url, keysOn),
    supportedInterfaces: VERSIONS.map((protocolVersion) => ({
      url,
      protocolBinding: 'JSONRPC',
      tenant: '',
      protocolVersion,
    })),
    skills: [skillOf(agent)],
  };
}

/**
 * The service's card: every active agent a skill, each with its own card (the `agents` extension lists their
 * addresses). It has no endpoint of its own: a client talks to an agent at its card's address.
 */
export function serviceCard(agents: Agent[], origin: string, keysOn: boolean): AgentCard {
  const description = `The agents of this service, each reachable over A2A at its own card's address. ${APPROVALS}`;
  const base = cardBase('workflows-agents-service', description, origin, keysOn);
  const cards = agents.map((agent) => ({
    name: agent.name,
    card: `${origin}${a2aPath(agent.name)}/${AGENT_CARD_PATH}`,
  }));
  return {
    ...base,
    capabilities: {
      ...base.capabilities,
      extensions: [
        {
          uri: 'urn:workflows-agents-service:agents',
          description: 'Each agent and its card',
          required: false,
          params: { agents: cards },
        },
      ],
    },
    supportedInterfaces: [],
    skills: agents.map(skillOf),
  };
}

function skillOf(agent: Agent): AgentSkill {
  return {
    id: agent.name,
    name: agent.name,
    description: agent.description || agent.instructions.slice(0, 500) || `The agent ${agent.name}`,
    tags: ['agent'],
    examples: [],
    inputModes: ['text/plain', 'application/json'],
    outputModes: agent.outputSchema ? ['text/plain', 'application/json'] : ['text/plain'],
    securityRequirements: [],
  };
}

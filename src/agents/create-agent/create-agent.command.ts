import { Command } from '@nestjs/cqrs';
import { Agent, AgentDefinition } from '../agent';

export class CreateAgentCommand extends Command<Agent> {
  constructor(readonly definition: AgentDefinition) {
    super();
  }
}

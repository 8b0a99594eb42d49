import { Command } from '@nestjs/cqrs';
import { Agent } from '../agent';

export class CreateAgentCommand extends Command<Agent> {
  constructor(
    readonly name: string,
    readonly model: string,
    readonly instructions: string,
    readonly tools: string[],
    readonly maxSteps: number,
  ) {
    super();
  }
}

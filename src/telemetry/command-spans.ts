import type { CommandBus, ICommand } from '@nestjs/cqrs';
import { inSpan } from '../shared/trace-context';

/** A span around each command the bus hands to its handler (`command RunAgentCommand`), while tracing is on. */
export function addCommandSpans(bus: CommandBus): void {
  const execute = bus.execute.bind(bus);
  bus.execute = ((command: ICommand) =>
    inSpan(`command ${command.constructor.name}`, { 'app.command': command.constructor.name }, () =>
      execute(command),
    )) as CommandBus['execute'];
}

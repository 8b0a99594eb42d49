import type { CommandBus, ICommand } from '@nestjs/cqrs';
import { inSpan, traceOf, withTrace } from '../shared/trace-context';

/**
 * A span around each command the bus hands to its handler (`command RunAgentCommand`), while tracing is on. Its
 * parent is the trace context the command carries (the request's, `withTrace`), else the active one (a tick's);
 * the command then carries the span's own context, for its handler to pass on to the actors.
 */
export function addCommandSpans(bus: CommandBus): void {
  const execute = bus.execute.bind(bus);
  // Each command class's span name and attributes, made once (the SDK copies the attributes into each span).
  const described = new Map<unknown, { name: string; attributes: { 'app.command': string } }>();
  bus.execute = ((command: ICommand) => {
    const type = command.constructor;
    let span = described.get(type);
    if (!span) described.set(type, (span = { name: `command ${type.name}`, attributes: { 'app.command': type.name } }));
    return inSpan(span.name, span.attributes, (_span, traced) => execute(withTrace(command, traced)), {
      parent: traceOf(command),
    });
  }) as CommandBus['execute'];
}

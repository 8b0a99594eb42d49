import { DomainEvent, Decider } from '../domain/decider';
import { AppendResult } from '../event-store/event-store';
import { CommandResult, NewStreamEvents } from './actor';

/** A command, the stream it goes to, and that stream's decider. */
export interface StreamCommand<S, C, E extends DomainEvent> {
  stream: string;
  decider: Decider<S, C, E>;
  command: C;
}

export interface SendOptions<E extends DomainEvent> {
  /** The caller has just made the stream's id: no read first (see ActorSendOptions). */
  newStream?: boolean;
  /** The streams this command opens, made from its events: written in its commit where the store can. */
  opens?(events: E[]): Array<StreamCommand<any, any, any>>;
}

/** A command's result; with `opens`, the opened streams' results, or undefined when they were not written. */
export interface SendResult<S, E> extends CommandResult<S, E> {
  opened?: Array<CommandResult<unknown, DomainEvent>>;
}

/** Each command decided on its stream's initial state. */
export function decideNew(commands: Array<StreamCommand<any, any, any>>, now: Date): NewStreamEvents[] {
  return commands.map(({ stream, decider, command }) => ({
    stream,
    events: decider.decide(decider.initialState, command, now),
  }));
}

/** New streams' events beside what their appends wrote. */
export function withResults(parts: NewStreamEvents[], results: AppendResult[]): Array<NewStreamEvents & AppendResult> {
  return parts.map((part, i) => ({ ...part, ...results[i] }));
}

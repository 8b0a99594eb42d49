import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../actors/actor-registry';
import { DomainError } from '../domain/decider';
import { EVENT_STORE, EventStore } from '../event-store/event-store';
import { SUBJECT_KEYS, SubjectKeys } from '../event-store/sealing/subject-keys';
import { ReadYourWrites } from '../read-models/read-your-writes';
import { namespaceProblem } from '../shared/memory-namespace';
import { ValidationFailed } from '../shared/validation-failed';
import { subjectDecider, subjectStream } from './subject';

/** What the service holds about a subject, by the streams and namespaces bound to it. */
export interface SubjectView {
  subjectId: string;
  namespaces: string[];
  threads: string[];
  runs: string[];
  memoryItems: number;
  forgottenAt: string | null;
}

export class LookUpSubject extends Query<SubjectView> {
  constructor(readonly subjectId: string) {
    super();
  }
}

export class SetSubjectNamespaces extends Command<SubjectView> {
  constructor(
    readonly subjectId: string,
    readonly namespaces: string[],
  ) {
    super();
  }
}

export class ForgetSubject extends Command<SubjectView> {
  constructor(readonly subjectId: string) {
    super();
  }
}

const contextOf = (subjectId: string) => ({
  correlationId: subjectStream(subjectId),
  causationId: subjectStream(subjectId),
});

/** The keys, or a 409 naming the variable that would give them. */
function keysOrConflict(keys: SubjectKeys | null): SubjectKeys {
  if (keys) return keys;
  const message = 'Subjects cannot be forgotten here: set DATA_KEY_SECRET (see docs/security.md)';
  throw new DomainError('conflict', message, [], 'subject-keys-not-configured');
}

/** Base of the three: the keys, the actors, and the subject as it stands. */
abstract class SubjectHandler {
  constructor(
    @Inject(SUBJECT_KEYS) protected readonly keys: SubjectKeys | null,
    protected readonly actors: ActorRegistry,
    protected readonly readYourWrites: ReadYourWrites,
  ) {}

  protected async view(subjectId: string, keys: SubjectKeys): Promise<SubjectView> {
    const state = await this.actors.of(subjectStream(subjectId), subjectDecider).read();
    const streams = keys.streamsOf(subjectId);
    const ids = (prefix: string) => streams.filter((s) => s.startsWith(prefix)).map((s) => s.slice(prefix.length));
    return {
      subjectId,
      namespaces: keys.namespacesOf(subjectId),
      threads: ids('thread-'),
      runs: ids('agentrun-'),
      memoryItems: streams.filter((s) => s.startsWith('memory-')).length,
      forgottenAt: state.forgottenAt,
    };
  }
}

@QueryHandler(LookUpSubject)
export class LookUpSubjectHandler extends SubjectHandler implements IQueryHandler<LookUpSubject> {
  execute({ subjectId }: LookUpSubject) {
    return this.view(subjectId, keysOrConflict(this.keys));
  }
}

@CommandHandler(SetSubjectNamespaces)
export class SetSubjectNamespacesHandler extends SubjectHandler implements ICommandHandler<SetSubjectNamespaces> {
  async execute({ subjectId, namespaces }: SetSubjectNamespaces) {
    const keys = keysOrConflict(this.keys);
    const errors = namespaces.flatMap((namespace, i) => {
      const problem = namespaceProblem(namespace);
      if (problem) return [{ path: `namespaces.${i}`, message: problem }];
      // Neither it, nor a namespace above or below it, may be another subject's.
      const others = keys.subjectsAround(namespace).filter((other) => other !== subjectId);
      if (others.length) return [{ path: `namespaces.${i}`, message: 'is, or holds, a namespace of another subject' }];
      return [];
    });
    if (errors.length) throw new ValidationFailed(errors);
    keys.setNamespaces(subjectId, namespaces);
    const set = { type: 'SetSubjectNamespaces' as const, subjectId, namespaces };
    const { position } = await this.actors.send(subjectStream(subjectId), subjectDecider, set, contextOf(subjectId));
    await this.readYourWrites.waitFor(position);
    return this.view(subjectId, keys);
  }
}

/**
 * Destroys the subject's data keys first, then records that it was forgotten (naming its streams and namespaces,
 * for the read models to drop what they hold of them), so that no answer says "forgotten" while a key remains.
 * The streams are listed once this instance has followed the log to its head: with several instances, it learns
 * there of the streams the others wrote about the subject.
 */
@CommandHandler(ForgetSubject)
export class ForgetSubjectHandler extends SubjectHandler implements ICommandHandler<ForgetSubject> {
  constructor(
    @Inject(SUBJECT_KEYS) keys: SubjectKeys | null,
    actors: ActorRegistry,
    readYourWrites: ReadYourWrites,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    super(keys, actors, readYourWrites);
  }

  async execute({ subjectId }: ForgetSubject) {
    const keys = keysOrConflict(this.keys);
    await this.readYourWrites.waitFor(await this.store.head());
    const streams = keys.streamsOf(subjectId);
    const namespaces = keys.namespacesOf(subjectId);
    await keys.forget(subjectId);
    this.actors.drop(streams);
    const forget = { type: 'ForgetSubject' as const, subjectId, streams, namespaces };
    const { position } = await this.actors.send(subjectStream(subjectId), subjectDecider, forget, contextOf(subjectId));
    await this.readYourWrites.waitFor(position);
    return this.view(subjectId, keys);
  }
}

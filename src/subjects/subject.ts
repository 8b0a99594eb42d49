import { Decider, DomainEvent, eventTypes } from '../domain/decider';

/**
 * A person (or anything) whose data can be forgotten: the memory namespaces bound to it, and each time it was
 * forgotten. Its events hold ids and names only, never content.
 */
export interface SubjectState {
  namespaces: string[];
  forgottenAt: string | null;
}

export type SetSubjectNamespaces = { type: 'SetSubjectNamespaces'; subjectId: string; namespaces: string[] };
export type ForgetSubject = { type: 'ForgetSubject'; subjectId: string; streams: string[]; namespaces: string[] };
export type SubjectCommand = SetSubjectNamespaces | ForgetSubject;

export type SubjectNamespacesSet = DomainEvent<
  'SubjectNamespacesSet',
  { subjectId: string; namespaces: string[]; setAt: string }
>;
/** The subject's data keys were destroyed: what they sealed in `streams` and `namespaces` reads as forgotten. */
export type SubjectForgotten = DomainEvent<
  'SubjectForgotten',
  { subjectId: string; streams: string[]; namespaces: string[]; forgottenAt: string }
>;
export type SubjectEvent = SubjectNamespacesSet | SubjectForgotten;

export const SUBJECT_EVENT_TYPES = eventTypes<SubjectEvent>({ SubjectNamespacesSet: true, SubjectForgotten: true });

export const subjectStream = (subjectId: string) => `subject-${subjectId}`;

export const subjectDecider: Decider<SubjectState, SubjectCommand, SubjectEvent> = {
  initialState: { namespaces: [], forgottenAt: null },

  decide(state, command, now) {
    const at = now.toISOString();
    if (command.type === 'SetSubjectNamespaces') {
      const namespaces = [...new Set(command.namespaces)].sort();
      if (namespaces.join('\n') === state.namespaces.join('\n')) return [];
      return [{ type: 'SubjectNamespacesSet', data: { subjectId: command.subjectId, namespaces, setAt: at } }];
    }
    const { subjectId, streams, namespaces } = command;
    // Each time: what was written about the subject since it was last forgotten goes too.
    return [{ type: 'SubjectForgotten', data: { subjectId, streams, namespaces, forgottenAt: at } }];
  },

  evolve(state, event) {
    if (event.type === 'SubjectNamespacesSet') return { ...state, namespaces: event.data.namespaces };
    return { ...state, forgottenAt: event.data.forgottenAt };
  },
};

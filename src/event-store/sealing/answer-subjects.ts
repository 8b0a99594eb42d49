import { SUBJECT_ID } from './sealed-fields';
import { SubjectKeys } from './subject-keys';

/** How deep an answer is looked into: a list's items and their runs' context are three levels down. */
const DEPTH = 5;

/**
 * The subjects an answer kept for an `Idempotency-Key` repeat is about, first found first: those it names (a
 * `subjectId`), and those of the runs, threads and memory namespaces it mentions. A run's answer is its subject's; a
 * search's answer can hold items of several subjects.
 */
export function subjectsOfAnswer(body: unknown, keys: SubjectKeys): string[] {
  const subjects = new Set<string>();
  const visit = (node: unknown, name: string, depth: number) => {
    if (typeof node === 'string') {
      const subject = subjectOfValue(name, node, keys);
      if (subject) subjects.add(subject);
    } else if (depth < DEPTH && typeof node === 'object' && node !== null) {
      if (Array.isArray(node)) for (const item of node) visit(item, name, depth + 1);
      else for (const [key, value] of Object.entries(node)) visit(value, key, depth + 1);
    }
  };
  visit(body, '', 0);
  return [...subjects];
}

function subjectOfValue(name: string, value: string, keys: SubjectKeys): string | undefined {
  if (name === 'subjectId') return SUBJECT_ID.test(value) ? value : undefined;
  if (name === 'namespace') return subjectOfNamespace(value, keys);
  // Resource ids are `<prefix>_<ULID>`; a run's stream is `agentrun-<id>`, a thread's `thread-<id>`.
  if (value.startsWith('agentrun_')) return keys.subjectOfStream(`agentrun-${value}`) ?? undefined;
  if (value.startsWith('thread_')) return keys.subjectOfStream(`thread-${value}`) ?? undefined;
  return undefined;
}

/** The subject of a memory namespace: one bound to it (or above it), or the thread's whose own namespace it is. */
export function subjectOfNamespace(namespace: string, keys: SubjectKeys): string | undefined {
  const thread = /^threads\/([^/]+)$/.exec(namespace);
  return (
    keys.subjectOfNamespace(namespace) ?? (thread ? keys.subjectOfStream(`thread-${thread[1]}`) : null) ?? undefined
  );
}

import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import { ProblemView } from '../components/problem-view';
import { TextInputField } from '../components/text-input-field';
import { navigate } from '../router';

/** Starts a conversation with the agent, about a person if one is named (its content is then sealed under its key). */
export function NewThreadForm({ agentId }: { agentId: string }) {
  const [subjectId, setSubjectId] = useState('');
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    const body = { agentId, ...(subjectId.trim() && { subjectId: subjectId.trim() }) };
    try {
      const thread = unwrap(await api.POST('/v1/threads', { body }));
      navigate('threads', thread.id);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <form class="row" onSubmit={submit} noValidate aria-label="New thread">
      <TextInputField
        id="thread-subject"
        label="About a person (subject id, optional)"
        path="subjectId"
        value={subjectId}
        onInput={setSubjectId}
        error={error}
        hint="Its messages can then be forgotten with the person (Subjects)."
      />
      <button type="submit" class="secondary">
        New thread
      </button>
      <ProblemView error={error} shownPaths={['subjectId']} />
    </form>
  );
}

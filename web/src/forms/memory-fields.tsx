import type { ProblemError } from '../api/client';
import { Field } from '../components/field';
import type { AgentDraft } from './agent-draft';

type MemoryDraft = Pick<
  AgentDraft,
  'memoryNamespace' | 'recallLimit' | 'recallMinScore' | 'memoryTools' | 'workingMemory' | 'workingSchema' | 'summarize'
>;
type TextKey = 'memoryNamespace' | 'recallLimit' | 'recallMinScore';

/** The memory an agent's runs use: their namespace, and how many of its items best matching the task they are given. */
export function MemoryFields({
  draft,
  set,
  error,
  id,
}: {
  draft: MemoryDraft;
  set: (change: Partial<MemoryDraft>) => void;
  error: ProblemError | null;
  id: (name: string) => string;
}) {
  const field = (name: TextKey, label: string, path: string, hint: string, numeric = false) => (
    <Field id={id(name)} label={label} path={path} error={error} hint={hint}>
      {(describedBy, invalid) => (
        <input
          id={id(name)}
          {...(numeric && { inputMode: 'numeric' as const })}
          value={draft[name]}
          onInput={(e) => set({ [name]: e.currentTarget.value })}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          disabled={name !== 'memoryNamespace' && !draft.memoryNamespace.trim()}
        />
      )}
    </Field>
  );
  return (
    <>
      <div class="row">
        {field(
          'memoryNamespace',
          'Memory namespace',
          'memory.namespace',
          "A template over the run's context, such as users/{{context.userId}}. Blank: none.",
        )}
        {field(
          'recallLimit',
          'Recall (items)',
          'memory.recall.limit',
          'Before each run, give the model this many items best matching its task (1 to 20). Blank: none.',
          true,
        )}
        {field('recallMinScore', 'Recall at least (score)', 'memory.recall.minScore', 'Blank: any score.', true)}
        <Field
          id={id('memory-tools')}
          label="Memory tools"
          path="memory.tools"
          error={error}
          hint="The model may remember, recall and forget items of the namespace."
        >
          {(describedBy, invalid) => (
            <input
              id={id('memory-tools')}
              type="checkbox"
              checked={draft.memoryTools}
              onChange={(e) => set({ memoryTools: e.currentTarget.checked })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              disabled={!draft.memoryNamespace.trim()}
            />
          )}
        </Field>
      </div>
      <div class="row">
        <Field
          id={id('working-memory')}
          label="Working memory"
          path="memory.working"
          error={error}
          hint="On a thread: one JSON document the model sees every turn and updates."
        >
          {(describedBy, invalid) => (
            <input
              id={id('working-memory')}
              type="checkbox"
              checked={draft.workingMemory}
              onChange={(e) => set({ workingMemory: e.currentTarget.checked })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <Field
          id={id('summarize')}
          label="Summarize"
          path="memory.summarize"
          error={error}
          hint="On a thread: messages that fall out of the window are folded into a summary the model sees."
        >
          {(describedBy, invalid) => (
            <input
              id={id('summarize')}
              type="checkbox"
              checked={draft.summarize}
              onChange={(e) => set({ summarize: e.currentTarget.checked })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        {draft.workingMemory && (
          <Field
            id={id('working-schema')}
            label="Working memory schema (JSON Schema, optional)"
            path="memory.working.schema"
            error={error}
            hint='"type": "object" at its root. Blank: any object.'
          >
            {(describedBy, invalid) => (
              <textarea
                id={id('working-schema')}
                class="mono"
                rows={4}
                value={draft.workingSchema}
                onInput={(e) => set({ workingSchema: e.currentTarget.value })}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
            )}
          </Field>
        )}
      </div>
    </>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Dataset, Scorer, WorkflowSummary } from '../api/schema';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { type FieldProblem, formProblem, parseCount, parseJsonField } from '../forms/form-problem';
import { TextAreaField } from '../components/text-area-field';
import { TextInputField } from '../components/text-input-field';
import { useActiveAgents } from '../forms/use-active-agents';
import { AgentNameField } from '../forms/agent-name-field';
import { navigate } from '../router';

/**
 * Runs an experiment: a dataset (and its version), an agent for an agent dataset or a workflow for a workflow
 * dataset (its version, and a change to try on it), the scorers, how many at once, the thresholds, and whether
 * tools are called or their recorded results given back.
 */
export function ExperimentForm() {
  const agents = useActiveAgents();
  const [datasets, setDatasets] = useState<Dataset[]>([]);
  const [scorers, setScorers] = useState<Scorer[]>([]);
  const [workflows, setWorkflows] = useState<WorkflowSummary[]>([]);
  const [workflowId, setWorkflowId] = useState('');
  const [datasetId, setDatasetId] = useState('');
  const [version, setVersion] = useState('');
  const [agent, setAgent] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [thresholds, setThresholds] = useState<Record<string, string>>({});
  const [concurrency, setConcurrency] = useState('5');
  const [agentVersion, setAgentVersion] = useState('');
  const [overrides, setOverrides] = useState('');
  const [mode, setMode] = useState<'live' | 'recorded'>('live');
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const load = async () => {
      const [sets, scoring, flows] = await Promise.all([
        api.GET('/v1/datasets', { params: { query: { status: 'active', limit: 200 } } }),
        api.GET('/v1/scorers', { params: { query: { status: 'active', limit: 200 } } }),
        api.GET('/v1/workflows', { params: { query: { limit: 200 } } }),
      ]);
      setDatasets(unwrap(sets).datasets);
      setScorers(unwrap(scoring).scorers);
      setWorkflows(unwrap(flows).workflows);
    };
    load().catch((caught: unknown) => setError(asProblem(caught)));
  }, []);

  const dataset = datasets.find((d) => d.id === datasetId) ?? datasets[0];
  const agentName = agent || agents.agents[0]?.name || '';
  const onWorkflow = dataset?.target === 'workflow';
  const chosenWorkflow = workflowId || workflows[0]?.id || '';
  const kind = onWorkflow ? 'workflow' : 'agent';

  async function submit(event: Event) {
    event.preventDefault();
    const problems: FieldProblem[] = [];
    const limits: Record<string, number> = {};
    for (const name of chosen) {
      const text = thresholds[name]?.trim();
      if (!text) continue;
      const value = Number(text);
      if (!(value >= 0 && value <= 1))
        problems.push({ path: `thresholds.${name}`, message: 'must be a number from 0 to 1' });
      else limits[name] = value;
    }
    const count = parseCount(concurrency, 'concurrency', 1, 50, problems);
    const pinned = agentVersion.trim() && parseCount(agentVersion, 'target.version', 1, 1_000_000, problems);
    const change = parseJsonField(overrides, 'target.overrides', problems) as Record<string, unknown> | undefined;
    if (!dataset) problems.push({ path: 'dataset', message: 'create a dataset first' });
    if (onWorkflow && !chosenWorkflow) problems.push({ path: 'target.workflow', message: 'create a workflow first' });
    if (!chosen.length) problems.push({ path: 'scorers', message: 'choose at least one scorer' });
    if (problems.length) return setError(formProblem(problems));
    setBusy(true);
    try {
      const body = {
        dataset: dataset!.id,
        ...(version.trim() && { datasetVersion: Number(version) }),
        target: {
          ...(onWorkflow ? { workflow: chosenWorkflow } : { agent: agentName }),
          ...(pinned && { version: pinned }),
          ...(change && { overrides: change }),
        },
        scorers: chosen,
        concurrency: count,
        mode,
        ...(Object.keys(limits).length && { thresholds: limits }),
      };
      const experiment = unwrap(await api.POST('/v1/experiments', { body }));
      navigate('experiments', experiment.id);
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  const toggle = (name: string, on: boolean) =>
    setChosen((old) => (on ? [...old, name] : old.filter((other) => other !== name)));

  return (
    <section aria-labelledby="new-experiment">
      <h2 id="new-experiment">New experiment</h2>
      <form class="card" onSubmit={submit} noValidate>
        <Field id="experiment-dataset" label="Dataset" path="dataset" error={error}>
          {(describedBy, invalid) => (
            <select
              id="experiment-dataset"
              value={dataset?.id ?? ''}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setDatasetId(e.currentTarget.value)}
            >
              {datasets.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.name} ({choice.target}, {choice.itemCount} items, version {choice.version})
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextInputField
          id="experiment-version"
          label="Dataset version"
          path="datasetVersion"
          value={version}
          onInput={setVersion}
          error={error}
          inputMode="numeric"
          hint="Optional: an earlier version's items (default: the current ones)"
        />
        {onWorkflow ? (
          <Field id="experiment-workflow" label="Workflow" path="target.workflow" error={error}>
            {(describedBy, invalid) => (
              <select
                id="experiment-workflow"
                value={chosenWorkflow}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setWorkflowId(e.currentTarget.value)}
              >
                {workflows.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {choice.name} ({choice.id})
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : (
          <AgentNameField
            id="experiment-agent"
            label="Agent"
            path="target.agent"
            error={error}
            agents={agents.agents}
            value={agent}
            onChange={setAgent}
          />
        )}
        <TextInputField
          id="experiment-agent-version"
          label={onWorkflow ? 'Workflow version' : 'Agent version'}
          path="target.version"
          value={agentVersion}
          onInput={setAgentVersion}
          error={error}
          inputMode="numeric"
          hint={`Optional: an earlier version of the ${kind} (default: its current one)`}
        />
        <TextAreaField
          id="experiment-overrides"
          label="Overrides"
          path="target.overrides"
          value={overrides}
          onInput={setOverrides}
          error={error}
          mono
          hint={
            onWorkflow
              ? 'Optional: a change to try without saving it, as JSON fields of the workflow, e.g. {"steps": [...]}'
              : 'Optional: a change to try without saving it, as JSON fields of the agent, e.g. {"instructions": "Answer in one line."}'
          }
        />
        <Field
          id="experiment-mode"
          label="Tools"
          path="mode"
          error={error}
          hint="Recorded: items made from runs get the results those runs' tool calls got (step by step for a workflow); only the model varies"
        >
          {(describedBy, invalid) => (
            <select
              id="experiment-mode"
              value={mode}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setMode(e.currentTarget.value as 'live' | 'recorded')}
            >
              <option value="live">Live: call the tools</option>
              <option value="recorded">Recorded: give back recorded results</option>
            </select>
          )}
        </Field>
        <fieldset>
          <legend>Scorers, each with the least mean it must reach (optional)</legend>
          {scorers.length === 0 && <p class="muted">No active scorers: define one on the Scorers page.</p>}
          {scorers.map((scorer) => (
            <div key={scorer.id} class="inline-form">
              <label class="inline">
                <input
                  type="checkbox"
                  checked={chosen.includes(scorer.name)}
                  onChange={(e) => toggle(scorer.name, e.currentTarget.checked)}
                />{' '}
                {scorer.name}
              </label>
              <label class="inline">
                Threshold for {scorer.name}
                <input
                  size={5}
                  inputMode="decimal"
                  value={thresholds[scorer.name] ?? ''}
                  disabled={!chosen.includes(scorer.name)}
                  onInput={(e) => setThresholds({ ...thresholds, [scorer.name]: e.currentTarget.value })}
                />
              </label>
            </div>
          ))}
        </fieldset>
        <TextInputField
          id="experiment-concurrency"
          label="Items at once"
          path="concurrency"
          value={concurrency}
          onInput={setConcurrency}
          error={error}
          inputMode="numeric"
          hint="1 to 50"
        />
        <ProblemView
          error={error}
          shownPaths={[
            'dataset',
            'datasetVersion',
            'target',
            'target.agent',
            'target.workflow',
            'target.version',
            'target.overrides',
            'mode',
            'concurrency',
          ]}
        />
        <button type="submit" disabled={busy}>
          Run experiment
        </button>
      </form>
    </section>
  );
}

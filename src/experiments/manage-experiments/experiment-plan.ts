import { AgentDirectory } from '../../agents/agent-directory.port';
import { DatasetItems } from '../../datasets/dataset-items.port';
import type { DatasetTarget } from '../../datasets/dataset';
import { DomainError } from '../../domain/decider';
import { ScorerDirectory } from '../../scorers/scorer-directory.port';
import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import { WorkflowTrials } from '../../workflows/workflow-trials.port';
import type { ExperimentPlan, ExperimentTarget } from '../experiment';
import type { CreateExperimentDto, ExperimentTargetDto } from './experiment.dto';

export interface PlanSources {
  datasets: DatasetItems;
  agents: AgentDirectory;
  workflows: WorkflowTrials;
  scorers: ScorerDirectory;
}

/**
 * What an experiment will run, from its request: the dataset's version and its item count, the agent or workflow
 * and its version, the scorers by name, each resolved now and recorded (a scorer renamed or an agent archived later
 * changes nothing).
 * A threshold that is not a number from 0 to 1, or a target naming neither or both of an agent and a workflow, is a
 * 400; what names nothing (a dataset, an agent, a workflow, a scorer, a threshold's scorer not among `scorers`), or
 * a target of the other kind than the dataset's, a 422 naming the field.
 */
export function planOf(id: string, body: CreateExperimentDto, sources: PlanSources): ExperimentPlan {
  const { concurrency = 5, thresholds = {} } = body;
  const shapes: FieldError[] = Object.entries(thresholds)
    .filter(([, value]) => typeof value !== 'number' || !(value >= 0 && value <= 1))
    .map(([name]) => ({ path: `thresholds.${name}`, message: 'must be a number from 0 to 1' }));
  const twice = body.scorers.findIndex((name, i) => body.scorers.indexOf(name) !== i);
  if (twice >= 0) shapes.push({ path: `scorers[${twice}]`, message: `"${body.scorers[twice]}" is named twice` });
  const kind: DatasetTarget = body.target.workflow === undefined ? 'agent' : 'workflow';
  if ((body.target.agent === undefined) === (body.target.workflow === undefined))
    shapes.push({ path: 'target', message: 'must name either an agent (`agent`) or a workflow (`workflow`)' });
  if (shapes.length) throw new ValidationFailed(shapes);

  const errors: FieldError[] = [];
  const dataset = sources.datasets.get(body.dataset);
  if (!dataset) errors.push({ path: 'dataset', message: `No dataset ${body.dataset} exists` });
  else if (dataset.target !== kind)
    errors.push({
      path: `target.${kind}`,
      message: `${dataset.id} is a ${dataset.target} dataset: name ${dataset.target === 'agent' ? 'an agent' : 'a workflow'} to run it on`,
    });
  const version = body.datasetVersion ?? dataset?.version ?? 1;
  if (dataset && version > dataset.version)
    errors.push({ path: 'datasetVersion', message: `must be at most the dataset's version, ${dataset.version}` });
  const target = targetOf(body.target, kind, sources, errors);
  const scorers = body.scorers.map((name, i) => {
    const scorer = sources.scorers.activeNamed(name);
    if (!scorer) errors.push({ path: `scorers[${i}]`, message: `No active scorer is named "${name}"` });
    return { id: scorer?.id ?? '', name };
  });
  for (const name of Object.keys(thresholds)) {
    if (!body.scorers.includes(name))
      errors.push({ path: `thresholds.${name}`, message: `"${name}" is not among the experiment's scorers` });
  }
  if (errors.length || !dataset || !target) {
    throw new DomainError('unprocessable', errors.map((error) => error.message).join('; '), errors);
  }
  return {
    id,
    dataset: { id: dataset.id, name: dataset.name, version, itemCount: sources.datasets.countAt(dataset.id, version) },
    target,
    scorers,
    concurrency,
    mode: body.mode ?? 'live',
    thresholds,
  };
}

/** The agent or workflow the target names, at the version asked (default: its current one); undefined if none. */
function targetOf(
  asked: ExperimentTargetDto,
  kind: DatasetTarget,
  sources: PlanSources,
  errors: FieldError[],
): ExperimentTarget | undefined {
  const overrides = asked.overrides ?? null;
  const found =
    kind === 'agent' ? agentNamed(asked.agent!, sources, errors) : workflowNamed(asked.workflow!, sources, errors);
  if (!found) return undefined;
  const atVersion = asked.version ?? found.version;
  if (atVersion > found.version) {
    errors.push({ path: 'target.version', message: `must be at most the ${kind}'s version, ${found.version}` });
    return undefined;
  }
  return kind === 'agent'
    ? { agentId: found.id, agent: found.name, agentVersion: atVersion, overrides }
    : { workflowId: found.id, workflow: found.name, workflowVersion: atVersion, overrides };
}

function agentNamed(name: string, sources: PlanSources, errors: FieldError[]) {
  const agent = sources.agents.activeAgentNamed(name);
  if (!agent) errors.push({ path: 'target.agent', message: `No active agent is named "${name}"` });
  return agent;
}

function workflowNamed(name: string, sources: PlanSources, errors: FieldError[]) {
  const found = sources.workflows.named(name);
  if (found.length === 1) return found[0];
  const message = found.length
    ? `${found.length} workflows are named "${name}" (${found.map((workflow) => workflow.id).join(', ')}): name one by its id`
    : `No workflow that is not archived is named "${name}"`;
  errors.push({ path: 'target.workflow', message });
  return undefined;
}

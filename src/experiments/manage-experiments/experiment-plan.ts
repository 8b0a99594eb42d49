import { AgentDirectory } from '../../agents/agent-directory.port';
import { DatasetItems } from '../../datasets/dataset-items.port';
import { DomainError } from '../../domain/decider';
import { ScorerDirectory } from '../../scorers/scorer-directory.port';
import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import type { ExperimentPlan } from '../experiment';
import type { CreateExperimentDto } from './experiment.dto';

export interface PlanSources {
  datasets: DatasetItems;
  agents: AgentDirectory;
  scorers: ScorerDirectory;
}

/**
 * What an experiment will run, from its request: the dataset's version and its item count, the agent by name and
 * its version, the scorers by name, each resolved now and recorded (a scorer renamed or an agent archived later
 * changes nothing).
 * A threshold that is not a number from 0 to 1 is a 400; what names nothing (a dataset, an agent, a scorer, a
 * threshold's scorer not among `scorers`) a 422 naming the field.
 */
export function planOf(id: string, body: CreateExperimentDto, sources: PlanSources): ExperimentPlan {
  const { concurrency = 5, thresholds = {} } = body;
  const shapes: FieldError[] = Object.entries(thresholds)
    .filter(([, value]) => typeof value !== 'number' || !(value >= 0 && value <= 1))
    .map(([name]) => ({ path: `thresholds.${name}`, message: 'must be a number from 0 to 1' }));
  const twice = body.scorers.findIndex((name, i) => body.scorers.indexOf(name) !== i);
  if (twice >= 0) shapes.push({ path: `scorers[${twice}]`, message: `"${body.scorers[twice]}" is named twice` });
  if (shapes.length) throw new ValidationFailed(shapes);

  const errors: FieldError[] = [];
  const dataset = sources.datasets.get(body.dataset);
  if (!dataset) errors.push({ path: 'dataset', message: `No dataset ${body.dataset} exists` });
  else if (dataset.target !== 'agent')
    errors.push({ path: 'dataset', message: `${dataset.id} is a workflow dataset: experiments run agent datasets` });
  const version = body.datasetVersion ?? dataset?.version ?? 1;
  if (dataset && version > dataset.version)
    errors.push({ path: 'datasetVersion', message: `must be at most the dataset's version, ${dataset.version}` });
  const agent = sources.agents.activeAgentNamed(body.target.agent);
  if (!agent) errors.push({ path: 'target.agent', message: `No active agent is named "${body.target.agent}"` });
  const agentVersion = body.target.version ?? agent?.version ?? 1;
  if (agent && agentVersion > agent.version)
    errors.push({ path: 'target.version', message: `must be at most the agent's version, ${agent.version}` });
  const scorers = body.scorers.map((name, i) => {
    const scorer = sources.scorers.activeNamed(name);
    if (!scorer) errors.push({ path: `scorers[${i}]`, message: `No active scorer is named "${name}"` });
    return { id: scorer?.id ?? '', name };
  });
  for (const name of Object.keys(thresholds)) {
    if (!body.scorers.includes(name))
      errors.push({ path: `thresholds.${name}`, message: `"${name}" is not among the experiment's scorers` });
  }
  if (errors.length || !dataset || !agent) {
    throw new DomainError('unprocessable', errors.map((error) => error.message).join('; '), errors);
  }
  return {
    id,
    dataset: { id: dataset.id, name: dataset.name, version, itemCount: sources.datasets.countAt(dataset.id, version) },
    target: { agentId: agent.id, agent: agent.name, agentVersion, overrides: body.target.overrides ?? null },
    scorers,
    concurrency,
    mode: body.mode ?? 'live',
    thresholds,
  };
}

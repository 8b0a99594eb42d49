import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { apiKey, onApiKeyRequired } from './api/api-key';
import { KeyPrompt } from './components/key-prompt';
import { AgentCreatePage } from './pages/agent-create-page';
import { AgentPage } from './pages/agent-page';
import { AgentRunByIdPage, WorkflowRunByIdPage } from './pages/run-by-id-page';
import { AgentRunPage } from './pages/agent-run-page';
import { AgentsPage } from './pages/agents-page';
import { EventsPage } from './pages/events-page';
import { DefinitionVersionPage } from './pages/definition-version-page';
import { DatasetPage } from './pages/dataset-page';
import { DatasetsPage } from './pages/datasets-page';
import { ExperimentComparePage } from './pages/experiment-compare-page';
import { ExperimentPage } from './pages/experiment-page';
import { ExperimentsPage } from './pages/experiments-page';
import { ScorerPage } from './pages/scorer-page';
import { ScorersPage } from './pages/scorers-page';
import { HistoryPage } from './pages/history-page';
import { ThreadPage } from './pages/thread-page';
import { WebhookPage } from './pages/webhook-page';
import { WebhooksPage } from './pages/webhooks-page';
import { UsagePage } from './pages/usage-page';
import { MemoryPage } from './pages/memory-page';
import { MemoryItemPage } from './pages/memory-item-page';
import { SubjectsPage } from './pages/subjects-page';
import { WorkflowCreatePage } from './pages/workflow-create-page';
import { WorkflowPage } from './pages/workflow-page';
import { WorkflowRunPage } from './pages/workflow-run-page';
import { WorkflowsPage } from './pages/workflows-page';
import { href, useHashPath } from './router';
import './styles.css';

/** Each section's name, for the page's title. */
const TITLES: Record<string, string> = {
  workflows: 'Workflows',
  events: 'Event log',
  webhooks: 'Webhooks',
  datasets: 'Datasets',
  scorers: 'Scorers',
  experiments: 'Experiments',
  usage: 'Usage',
  memory: 'Memory',
  subjects: 'Subjects',
};

function Page({ path }: { path: string[] }) {
  const [section, id, sub, subId] = path;
  if (section === 'agents' && id === 'new') return <AgentCreatePage />;
  if ((section === 'agents' || section === 'workflows') && id && sub === 'versions' && subId)
    return <DefinitionVersionPage kind={section} id={id} version={subId} />;
  if (section === 'agents' && id && sub === 'runs' && subId)
    return <AgentRunPage key={subId} agentId={id} runId={subId} />;
  if (section === 'agents' && id) return <AgentPage agentId={id} />;
  if (section === 'agent-runs' && id) return <AgentRunByIdPage runId={id} />;
  if (section === 'workflow-runs' && id) return <WorkflowRunByIdPage runId={id} />;
  if (section === 'workflows' && id === 'new') return <WorkflowCreatePage />;
  if (section === 'workflows' && id && sub === 'runs' && subId)
    return <WorkflowRunPage key={subId} workflowId={id} runId={subId} />;
  if (section === 'workflows' && id) return <WorkflowPage workflowId={id} />;
  if (section === 'workflows') return <WorkflowsPage />;
  if (section === 'events') return <EventsPage />;
  if (section === 'history' && id) return <HistoryPage stream={id} />;
  if (section === 'threads' && id) return <ThreadPage threadId={id} />;
  if (section === 'webhooks' && id) return <WebhookPage webhookId={id} />;
  if (section === 'webhooks') return <WebhooksPage />;
  if (section === 'datasets' && id) return <DatasetPage key={id} datasetId={id} />;
  if (section === 'datasets') return <DatasetsPage />;
  if (section === 'scorers' && id) return <ScorerPage key={id} scorerId={id} />;
  if (section === 'scorers') return <ScorersPage />;
  if (section === 'experiments' && id === 'compare' && sub && subId)
    return <ExperimentComparePage key={`${sub} ${subId}`} base={sub} head={subId} />;
  if (section === 'experiments' && id) return <ExperimentPage key={id} experimentId={id} />;
  if (section === 'experiments') return <ExperimentsPage />;
  if (section === 'usage') return <UsagePage />;
  if (section === 'memory' && id && sub) return <MemoryItemPage key={`${id} ${sub}`} namespace={id} itemKey={sub} />;
  if (section === 'memory') return <MemoryPage key={id ?? ''} namespace={id} />;
  if (section === 'subjects') return <SubjectsPage key={id ?? ''} subjectId={id} />;
  return <AgentsPage />;
}

/** The address's hash holds the route, so the skip link moves the focus itself instead of changing the hash. */
function skipToContent(event: Event) {
  event.preventDefault();
  document.getElementById('content')?.focus();
}

function App() {
  const path = useHashPath();
  const [needKey, setNeedKey] = useState(false);
  const [keyRefused, setKeyRefused] = useState(false);
  const [session, setSession] = useState(0);
  // On a narrow screen the sections fold behind a menu button; following a link, or any change of page, folds them.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path.join('/')]);
  useEffect(
    () =>
      onApiKeyRequired((refused) => {
        setNeedKey(true);
        // Several requests may fail with one key: the first to find it says whether it was refused.
        if (refused) setKeyRefused(true);
      }),
    [],
  );
  useEffect(() => {
    const title = TITLES[path[0] === 'history' ? 'events' : path[0]] ?? 'Agents';
    document.title = `${title} · Workflows and agents`;
  }, [path.join('/')]);
  const section = path[0] ?? 'agents';
  const nav = (name: string, label: string, current: boolean) => (
    <a href={href(name)} aria-current={current ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
      {label}
    </a>
  );
  return (
    <>
      <a class="skip" href="#content" onClick={skipToContent}>
        Skip to content
      </a>
      <header>
        <span class="brand">Workflows &amp; agents</span>
        <button
          type="button"
          class="secondary menu-button"
          aria-expanded={menuOpen}
          aria-controls="sections"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav id="sections" aria-label="Sections" class={menuOpen ? 'open' : undefined}>
          {nav('agents', 'Agents', section === 'agents' || section === 'agent-runs' || section === 'threads')}
          {nav('workflows', 'Workflows', section === 'workflows' || section === 'workflow-runs')}
          {nav('events', 'Event log', section === 'events' || section === 'history')}
          {nav('datasets', 'Datasets', section === 'datasets')}
          {nav('scorers', 'Scorers', section === 'scorers')}
          {nav('experiments', 'Experiments', section === 'experiments')}
          {nav('memory', 'Memory', section === 'memory')}
          {nav('subjects', 'Subjects', section === 'subjects')}
          {nav('webhooks', 'Webhooks', section === 'webhooks')}
          {nav('usage', 'Usage', section === 'usage')}
        </nav>
        {apiKey() && (
          <button
            type="button"
            class="secondary"
            onClick={() => (sessionStorage.clear(), setKeyRefused(false), setNeedKey(true))}
          >
            Forget key
          </button>
        )}
      </header>
      <div id="content" tabIndex={-1}>
        {needKey ? (
          <KeyPrompt
            refused={keyRefused}
            onDone={() => {
              setNeedKey(false);
              setKeyRefused(false);
              setSession(session + 1);
            }}
          />
        ) : (
          <Page key={`${session}/${path.join('/')}`} path={path} />
        )}
      </div>
    </>
  );
}

render(<App />, document.getElementById('app')!);

/**
 * The import rules of src/ (`npm run check:imports`, part of `npm test`; docs/architecture.md draws the layers).
 * The arrows run one way, by folder (LAYERS) and, within the features, by file role: HTTP → commands and queries →
 * actors and read side → store → domain. No circles, type-only imports included.
 */
// A decider is a file of its own, or a folder of its own when it is split by job (agents/agent-run/, workflows/workflow/,
// workflows/workflow-run/: events, commands, decide, evolve, view).
const DOMAIN =
  '^src/(domain/|agents/((agent|agent-name|agent-tool|guardrails|handoffs|live-scorers)[.]ts$|agent-run/|guardrail-checks/)|workflows/((step-task|step-condition|condition-budget)[.]ts$|(workflow|workflow-run)/)|threads/thread[.]ts$|datasets/dataset[.]ts$|scorers/scorer[.]ts$|signals/signal[.]ts$|experiments/(experiment|experiment-summary)[.]ts$|idempotency/idempotency-key[.]ts$)';
const HTTP = '^src/http/|[.](controller|dto)[.]ts$';
const READ_SIDE = '^src/(read-models|consumers|live)/|[.](read-model|projection)[.]ts$|-tables[.]ts$';
const FEATURES = '(agents|workflows|threads|webhooks|datasets|scorers|experiments|scores|signals|usage|tools|models)';

/**
 * The layers by folder, from the top. A folder may import its own layer and the layers below it, never one above
 * (tests, which put anything together, excepted). Within the features' layer the rules further down say what may
 * use what: routes, handlers, read models and deciders by file role, and features through each other's ports.
 */
const LAYERS = [
  ['bootstrap', '^src/[^/]+[.]ts$'],
  ['features', '^src/(agents|workflows|threads|webhooks|datasets|scorers|experiments|scores|signals|usage|events|operations|execution|idempotency|models|tools|protocols)/'],
  ['routes', '^src/(http|access)/'],
  ['read-side', '^src/(live|read-models|consumers)/'],
  ['actors', '^src/actors/'],
  ['telemetry', '^src/telemetry/'],
  ['store', '^src/event-store/'],
  ['domain', '^src/domain/'],
  // The configuration reads the environment with shared helpers only, below every feature.
  ['config', '^src/config/'],
  ['shared', '^src/shared/'],
];
const TESTS = '[.](spec|int-spec|contract)[.]ts$';

/** One rule a layer: nothing in it imports a layer above it. */
const layerRules = LAYERS.slice(1).map(([name, path], i) => ({
  name: `${name}-imports-no-layer-above`,
  comment: `The ${name} layer (${path}) sits below ${LAYERS.slice(0, i + 1)
    .map(([above]) => above)
    .join(', ')}.`,
  severity: 'error',
  from: { path, pathNot: TESTS },
  to: { path: LAYERS.slice(0, i + 1).map(([, above]) => above) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'Modules that import each other, even for types only, cannot be read or moved one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'Deciders and their types know nothing but other deciders and shared helpers.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^src/', pathNot: `${DOMAIN}|^src/shared/` },
    },
    {
      name: 'store-knows-only-its-contract',
      comment: 'The event store and its adapters know no actor, read model, feature or route.',
      severity: 'error',
      from: { path: '^src/event-store/' },
      to: { path: '^src/', pathNot: '^src/(event-store|shared|config)/' },
    },
    {
      name: 'actors-stand-on-the-store',
      comment: 'Actors know the store and the deciders they are given, nothing above them.',
      severity: 'error',
      from: { path: '^src/actors/' },
      to: { path: '^src/', pathNot: '^src/(actors|event-store|domain|shared|config)/' },
    },
    {
      name: 'read-side-below-commands-and-http',
      comment: 'Read models, consumers and live feeds serve the layers above; they import none of them.',
      severity: 'error',
      from: { path: READ_SIDE },
      to: { path: `${HTTP}|[.](handler|queries|command)[.]ts$|^src/execution/` },
    },
    {
      name: 'process-managers-below-http',
      comment: 'The process managers in execution/ work on actors and the read side, never on routes.',
      severity: 'error',
      from: { path: '^src/execution/' },
      to: { path: `${HTTP}|[.](handler|queries)[.]ts$` },
    },
    {
      name: 'features-queue-runs-through-the-hand-off',
      comment:
        'The process managers in execution/ build on the features. A feature that queues an agent run hands it to the ' +
        'local executor through execution/agent-runs/runs-queued-here.ts, and imports nothing else of execution/.',
      severity: 'error',
      from: { path: '^src/(agents|workflows|threads|webhooks|datasets|scorers|experiments|scores|signals|usage|tools)/' },
      to: { path: '^src/execution/', pathNot: '^src/execution/agent-runs/runs-queued-here[.]ts$' },
    },
    {
      name: 'models-are-the-provider-adapter',
      comment:
        'models/ makes `provider/model` an AI SDK model; the agent loop that calls it is in execution/agent-loop/.',
      severity: 'error',
      from: { path: '^src/models/' },
      to: { path: '^src/(agents|threads|workflows|execution)/' },
    },
    {
      name: 'commands-and-queries-below-http',
      comment:
        "Handlers serve the routes; they import none (a use case's DTO, whose rules check a merged patch, is its own).",
      severity: 'error',
      from: { path: '[.](handler|queries)[.]ts$' },
      to: { path: '^src/http/|[.]controller[.]ts$' },
    },
    {
      name: 'controllers-not-on-execution',
      comment: 'Routes wait on the read side (live/, read-models/), never on the process managers.',
      severity: 'error',
      from: { path: '[.]controller[.]ts$' },
      to: { path: '^src/execution/' },
    },
    {
      name: 'features-meet-through-ports',
      comment:
        "A feature uses another only through what that one offers: its module (Nest's wiring), its domain (the " +
        'events and state that every reader of its streams shares), and its ports (`*.port.ts`: a question a lower ' +
        'feature asks and a higher one answers, such as agents/workflows-using-agent.port.ts, or what a feature ' +
        'offers those above it, such as agents/agent-runs.port.ts). Named exceptions: the tools and models that ' +
        'agents check definitions against (tools/tool.ts, what a tool is; tools/tool-registry.ts, the tools there ' +
        'are; models/model-id.ts, `provider/model`).',
      severity: 'error',
      from: { path: `^src/${FEATURES}/` },
      to: {
        path: `^src/${FEATURES}/`,
        pathNot: [
          '^src/$1/',
          DOMAIN,
          '[.](port|module)[.]ts$',
          '^src/tools/(tool|tool-registry)[.]ts$',
          '^src/models/model-id[.]ts$',
        ],
      },
    },
    {
      name: 'only-modules-import-controllers',
      severity: 'error',
      from: { path: '^src/', pathNot: '[.]module[.]ts$|[.]spec[.]ts$' },
      to: { path: '[.]controller[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a circle of types is a circle all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

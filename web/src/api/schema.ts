/**
 * The API's types, generated from /v1/openapi.json by openapi-typescript (`npm run generate:client`; a test fails
 * when they are stale). The console and the end-to-end tests share the one generated file.
 */
export type { paths, components } from '../../../client/api-schema';
import type { components } from '../../../client/api-schema';

type Schemas = components['schemas'];
export type Agent = Schemas['AgentSchema'];
export type AgentListItem = Schemas['AgentListItemSchema'];
export type AgentRun = Schemas['AgentRunSchema'];
export type ToolCall = Schemas['ToolCallSchema'];
export type Tool = Schemas['ToolDefinitionSchema'];
export type Workflow = Schemas['WorkflowSchema'];
/** Any JSON, as a signal's data. */
export type SignalData = Schemas['SendSignalDto']['data'];
export type WorkflowSummary = Schemas['WorkflowSummarySchema'];
export type WorkflowRun = Schemas['WorkflowRunSchema'];
export type EventEnvelope = Schemas['EventEnvelopeSchema'];
export type Problem = Schemas['ProblemSchema'];
export type Provider = Schemas['ProviderSchema'];
export type Thread = Schemas['ThreadSchema'];
export type ThreadMessage = Schemas['ThreadMessageSchema'];
export type PendingApproval = Schemas['PendingApprovalSchema'];
export type Webhook = Schemas['WebhookSchema'];
export type DeliveryAttempt = Schemas['DeliveryAttemptSchema'];
export type UsageReport = Schemas['UsageReportSchema'];
export type UsageGroup = Schemas['UsageGroupSchema'];
export type Dataset = Schemas['DatasetSchema'];
export type DatasetItem = Schemas['DatasetItemSchema'];
export type Scorer = Schemas['ScorerSchema'];
export type Score = Schemas['ScoreSchema'];
export type Experiment = Schemas['ExperimentSchema'];
export type ExperimentResult = Schemas['ExperimentResultSchema'];
export type ExperimentComparison = Schemas['ExperimentComparisonSchema'];

import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import { ScheduleModule } from '@nestjs/schedule';
import { AccessModule } from './access/access.module';
import { AgentsModule } from './agents/agents.module';
import { AppConfig } from './config/app-config';
import { CoreModule, CoreOverrides } from './core.module';
import { EventsModule } from './events/events.module';
import { ExecutionModule } from './execution/execution.module';
import { ProtocolsModule } from './protocols/protocols.module';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import { IdempotencyHooks } from './idempotency/idempotency-hooks';
import { ServiceLogger, loggingOptions } from './operations/logging';
import { OperationsModule } from './operations/operations.module';
import { ModelsModule } from './models/models.module';
import { ThreadPortsModule } from './threads/thread-ports.module';
import { ThreadsModule } from './threads/threads.module';
import { UsageModule } from './usage/usage.module';
import { ScoresModule } from './scores/scores.module';
import { ToolsModule } from './tools/tools.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { DatasetsModule } from './datasets/datasets.module';
import { ScorersModule } from './scorers/scorers.module';
import { ExperimentsModule } from './experiments/experiments.module';
import { WorkflowPortsModule } from './workflows/workflow-ports.module';
import { WorkflowsModule } from './workflows/workflows.module';
import { SignalsModule } from './signals/signals.module';
import { MemoryModule } from './memory/memory.module';
import { SubjectsModule } from './subjects/subjects.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, overrides: CoreOverrides = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot(loggingOptions(config.logLevel, config.logFormat)),
        AccessModule.forRoot(config.access),
        CqrsModule.forRoot(),
        ScheduleModule.forRoot(),
        CoreModule.forRoot(config, overrides),
        ToolsModule.forRoot(config.tools),
        ModelsModule,
        AgentsModule,
        WorkflowsModule,
        WorkflowPortsModule,
        SignalsModule,
        MemoryModule,
        SubjectsModule,
        ThreadsModule,
        ThreadPortsModule,
        WebhooksModule,
        DatasetsModule,
        ScorersModule,
        ExperimentsModule,
        UsageModule,
        ScoresModule,
        ExecutionModule,
        OperationsModule,
        EventsModule,
        ProtocolsModule.forRoot(config.protocols),
      ],
      providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }, IdempotencyHooks, ServiceLogger],
    };
  }
}

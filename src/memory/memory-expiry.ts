import { Inject, Injectable } from '@nestjs/common';
import { ActorRegistry } from '../actors/actor-registry';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ProcessManager, ProcessManagerDeps } from '../consumers/process-manager';
import { Clock } from '../shared/clock';
import { memoryItemDecider, memoryStream } from './memory-item';
import { MemoryReadModel } from './queries/memory.read-model';

const BATCH = 500;

/**
 * Records the end of memory items' time to live: every `WORKFLOW_TIMER_POLL_MS` it looks in the read model for items
 * whose `expiresAt` has passed and records their removal (`MemoryItemRemoved`, reason `expired`). Reads and search
 * leave an item out from its `expiresAt` on, recorded or not. Every instance may sweep: an item's decider records
 * its expiry once, and only for the version that had it.
 */
@Injectable()
export class MemoryExpiry extends ProcessManager {
  protected readonly name = 'memory-expiry';
  private poll?: NodeJS.Timeout;
  private readonly pollMs: number;

  constructor(
    deps: ProcessManagerDeps,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly actors: ActorRegistry,
    private readonly memory: MemoryReadModel,
    private readonly clock: Clock,
  ) {
    super(deps, config.runs.executorEnabled);
    this.pollMs = config.workflows.timerPollMs;
  }

  protected override begin(): void {
    this.poll = setInterval(() => void this.sweep().catch((error) => this.logger.warn(String(error))), this.pollMs);
    this.poll.unref();
  }

  protected override stopTakingWork(): void {
    clearInterval(this.poll);
  }

  /** Records the removals due now; how many items it looked at. */
  async sweep(): Promise<number> {
    const due = this.memory.expired(this.clock.now(), BATCH);
    for (const { namespace, key, version } of due) {
      const stream = memoryStream(namespace, key);
      const context = { correlationId: stream, causationId: stream };
      await this.actors.send(stream, memoryItemDecider, { type: 'ExpireMemoryItem', version }, context);
    }
    return due.length;
  }
}

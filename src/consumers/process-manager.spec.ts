import { EventStore, RecordedEvent, SubscriptionHandler } from '../event-store/event-store';
import { CheckpointStore } from './checkpoint-store';
import { ProcessManager, ProcessManagerDeps, ReadSide } from './process-manager';

/** A store that only records who subscribes, from where, and whether they stopped; the test hands out the events. */
class SubscribedStore {
  readonly subscriptions: Array<{ after?: bigint; eventTypes?: string[]; handler: SubscriptionHandler }> = [];
  stopped = 0;

  subscribe(options: { after?: bigint; filter?: { eventTypes?: string[] } }, handler: SubscriptionHandler) {
    this.subscriptions.push({ after: options.after, eventTypes: options.filter?.eventTypes, handler });
    return { stop: async () => void this.stopped++ };
  }
}

class ReadModels implements ReadSide {
  caughtUp = false;
  private catchUp!: () => void;
  private readonly caughtUpNow = new Promise<void>((resolve) => (this.catchUp = resolve));

  whenCaughtUp(): Promise<void> {
    return this.caughtUpNow;
  }

  catchUpNow(): void {
    this.caughtUp = true;
    this.catchUp();
  }
}

/** Records each step of its life cycle; a `Slow` event is work in flight until the test finishes it. */
class RecordingWorker extends ProcessManager {
  protected readonly name = 'recording';
  protected override readonly follows = { filter: { eventTypes: ['Quick', 'Slow'] } };
  readonly steps: string[] = [];
  readonly inFlight: Array<() => void> = [];
  private readonly working = new Set<Promise<void>>();

  protected override begin(): void {
    this.steps.push('begin');
  }

  protected override stopTakingWork(): void {
    this.steps.push('stop taking work');
  }

  protected override async finishWork(): Promise<void> {
    this.steps.push('finish work');
    await Promise.all(this.working);
    this.steps.push('work finished');
  }

  protected override handle(events: RecordedEvent[]): void {
    for (const event of events) {
      this.steps.push(`handle ${event.type}`);
      if (event.type !== 'Slow') continue;
      const done = this.hold(event);
      this.working.add(new Promise<void>((resolve) => this.inFlight.push(() => (done(), resolve()))));
    }
  }
}

/** A worker that follows no events: it has the life cycle, and no subscription. */
class TimerWorker extends ProcessManager {
  protected readonly name = 'timer';
  begun = 0;

  protected override begin(): void {
    this.begun++;
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function recorded(type: string, position: bigint): RecordedEvent {
  const metadata = { schemaVersion: 1 };
  return {
    id: `${type}-${position}`,
    stream: 's-1',
    type,
    revision: 0n,
    position,
    data: {},
    metadata,
    recordedAt: new Date(0),
  };
}

describe('process manager', () => {
  let store: SubscribedStore;
  let readModels: ReadModels;
  let saved: bigint[];
  let deps: ProcessManagerDeps;

  beforeEach(() => {
    store = new SubscribedStore();
    readModels = new ReadModels();
    saved = [];
    const checkpoints: CheckpointStore = { load: () => 7n, save: (_name, position) => void saved.push(position) };
    deps = new ProcessManagerDeps(store as unknown as EventStore, checkpoints, readModels);
  });

  it('begins only once the read models have caught up, then follows its events from its checkpoint', async () => {
    const worker = new RecordingWorker(deps);
    const starting = worker.onApplicationBootstrap();
    await settle();
    expect(worker.steps).toEqual([]);
    expect(store.subscriptions).toHaveLength(0);

    readModels.catchUpNow();
    await starting;
    expect(worker.steps).toEqual(['begin']);
    expect(store.subscriptions).toEqual([{ after: 7n, eventTypes: ['Quick', 'Slow'], handler: expect.anything() }]);

    await store.subscriptions[0].handler.onEvents([recorded('Quick', 8n)]);
    expect(worker.steps).toEqual(['begin', 'handle Quick']);
    expect(saved).toEqual([8n]);
  });

  it('on shutdown takes up no new work, stops following, and waits for the work in flight', async () => {
    const worker = new RecordingWorker(deps);
    readModels.catchUpNow();
    await worker.onApplicationBootstrap();
    await store.subscriptions[0].handler.onEvents([recorded('Slow', 8n)]);

    let stopped = false;
    const stopping = worker.beforeApplicationShutdown().then(() => (stopped = true));
    await settle();
    expect(worker.steps).toEqual(['begin', 'handle Slow', 'stop taking work', 'finish work']);
    expect(store.stopped).toBe(1);
    expect(stopped).toBe(false);
    expect(saved).toEqual([]);

    worker.inFlight[0]();
    await stopping;
    expect(worker.steps[worker.steps.length - 1]).toBe('work finished');
    expect(saved).toEqual([8n]);
  });

  it('never begins when disabled, nor when shutdown came while the read models were catching up', async () => {
    const disabled = new RecordingWorker(deps, false);
    const stoppedEarly = new RecordingWorker(deps);
    const starting = [disabled.onApplicationBootstrap(), stoppedEarly.onApplicationBootstrap()];
    await stoppedEarly.beforeApplicationShutdown();
    readModels.catchUpNow();
    await Promise.all(starting);
    expect(disabled.steps).toEqual([]);
    expect(stoppedEarly.steps).toEqual(['stop taking work', 'finish work', 'work finished']);
    expect(store.subscriptions).toHaveLength(0);
  });

  it('without events to follow, begins once caught up and never subscribes', async () => {
    const worker = new TimerWorker(deps);
    readModels.catchUpNow();
    await worker.onApplicationBootstrap();
    await worker.beforeApplicationShutdown();
    expect(worker.begun).toBe(1);
    expect(store.subscriptions).toHaveLength(0);
    expect(store.stopped).toBe(0);
  });
});

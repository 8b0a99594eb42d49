import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const SCRIPT = join(__dirname, 'check.worker.js');

/** How long one compile or check may take on the worker before it is ended and the check fails. */
export const SCHEMA_CHECK_BUDGET_MS = 2000;
/** The worker's heap: a check that needs more ends the worker and fails, the service goes on. */
const WORKER_HEAP_MB = 256;

export interface SchemaError {
  /** A JSON Pointer into the value (`/title`), or empty for the value itself. */
  path: string;
  message: string;
}

/** A pattern of a schema (by its index among those given) that cannot be used, and why. */
export interface PatternProblem {
  index: number;
  message: string;
}

/**
 * From the worker: `patternProblems`; `problem`, ajv's reason the schema does not compile; or `errors`. Else
 * `failure`, from here.
 */
type Outcome = { problem?: string; errors?: SchemaError[]; failure?: string; patternProblems?: PatternProblem[] };

interface Job {
  message: { id: number; schema: string; patterns?: string[]; value?: unknown };
  settle(outcome: Outcome): void;
}

/**
 * Compiles user-given JSON Schemas and checks values against them on a worker thread (check.worker.js), one job
 * at a time. The service's event loop only sends and receives messages: a schema that takes long to compile, or an
 * answer that takes long to check, takes the worker's time. A job that runs past `budgetMs` ends the worker (its
 * compiled schemas with it; the next job starts a new one) and fails with the reason, so no check runs for ever.
 */
export class SchemaChecker {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private current: { job: Job; timer: NodeJS.Timeout } | undefined;
  private nextId = 1;

  constructor(private readonly budgetMs = SCHEMA_CHECK_BUDGET_MS) {}

  /**
   * Why `schemaText` cannot be used: its `patterns` (every pattern in it) that RE2 cannot run or that are too large;
   * else why ajv does not compile it, or not within the budget; nothing when it can be used.
   */
  async compile(
    schemaText: string,
    patterns: string[] = [],
  ): Promise<{ problem?: string; patternProblems?: PatternProblem[] }> {
    const outcome = await this.run({ id: this.nextId++, schema: schemaText, patterns });
    const { problem, failure, patternProblems } = outcome;
    if (failure !== undefined) return { problem: `could not be compiled: the compile ${failure}` };
    if (patternProblems?.length) return { patternProblems };
    return problem === undefined ? {} : { problem: `is not a valid JSON Schema: ${problem}` };
  }

  /** The ways `value` does not match the schema (empty when it does), or why it could not be checked. */
  async errors(schemaText: string, value: unknown): Promise<SchemaError[]> {
    const { problem, errors, failure } = await this.run({ id: this.nextId++, schema: schemaText, value });
    if (failure !== undefined) return [{ path: '', message: `could not be checked: the check ${failure}` }];
    if (problem !== undefined) return [{ path: '', message: `could not be checked: the schema ${problem}` }];
    return errors ?? [];
  }

  /** Ends the worker; a later job starts another. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private run(message: Job['message']): Promise<Outcome> {
    return new Promise((settle) => {
      this.queue.push({ message, settle });
      this.startNext();
    });
  }

  private startNext(): void {
    if (this.current) return;
    const job = this.queue.shift();
    if (!job) return;
    const timer = setTimeout(() => this.fail(`took longer than ${this.budgetMs} ms`), this.budgetMs);
    this.current = { job, timer };
    this.running().postMessage(job.message);
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(SCRIPT, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.on('message', (outcome: Outcome & { id: number }) => {
      if (this.current?.job.message.id === outcome.id) this.finish(outcome);
    });
    worker.on('error', (error) => this.fail(`failed (${error.message})`, worker));
    worker.on('exit', () => this.fail('stopped', worker));
    // An idle worker must not keep the process alive (a job in flight does, by its budget's timer). After the
    // listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private finish(outcome: Outcome): void {
    const { job, timer } = this.current!;
    clearTimeout(timer);
    this.current = undefined;
    job.settle(outcome);
    this.startNext();
  }

  /** The job in flight cannot finish: the worker is ended (if it is still the one running it) and it fails. */
  private fail(reason: string, worker = this.worker): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    void worker?.terminate();
    if (this.current) this.finish({ failure: reason });
  }
}

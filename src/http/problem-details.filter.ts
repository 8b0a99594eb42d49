import { ArgumentsHost, Catch, ExceptionFilter, Inject, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { answerFor } from './error-problems';
import { PROBLEM_CONTENT_TYPE, RETRY_AFTER_SECONDS } from './problem';

/** Answers every error as RFC 9457 problem+json; never leaks a stack trace. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { problem, log } = answerFor(error, this.config.http);
    this.log(log, error, String(request.id));
    // A client that went away has nobody to answer.
    if (reply.raw.destroyed || request.raw.socket?.destroyed) return;
    if (problem.status === 503) void reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
    void reply
      .status(problem.status)
      .type(PROBLEM_CONTENT_TYPE)
      .send({ ...problem, instance: request.url });
  }

  /** Each line carries the request's id (`req.id`, as the request's own line): no storage carries it here. */
  private log(level: ReturnType<typeof answerFor>['log'], error: unknown, id: string): void {
    const text = error instanceof Error ? error.message : String(error);
    const req = { id };
    if (level === 'error') this.logger.error({ req, msg: error instanceof Error ? (error.stack ?? text) : text });
    else if (level === 'warn')
      this.logger.warn({ req, msg: `Event store unavailable: ${String((error as Error)?.cause ?? text)}` });
    else if (level === 'debug') this.logger.debug({ req, msg: text });
  }
}

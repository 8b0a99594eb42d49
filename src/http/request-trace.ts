import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { traceOf } from '../shared/trace-context';

/**
 * The request's trace context (its HTTP span's), for the controller to hand to its command with `withTrace`;
 * undefined while tracing is off. Explicit, so that no async scope has to carry it (see `shared/trace-context.ts`).
 */
export const RequestTrace = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  traceOf(context.switchToHttp().getRequest<object>()),
);

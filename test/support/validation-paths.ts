import { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '../../src/http/validation';
import { ValidationFailed } from '../../src/shared/validation-failed';

/**
 * The app's validation pipe and a DTO's two ways through it: `fast` (its JSON Schema, class-validator on a refusal)
 * and `slow` (the DTO seen as an unmarked subclass, which does not inherit the fast path: class-validator alone).
 * `outcome` is what a body becomes on one of them, or `{ refused: errors }`, in a form the two can be compared in.
 */
export function validationPaths(dto: new () => object) {
  const pipe = createValidationPipe();
  const fast: ArgumentMetadata = { type: 'body', metatype: dto };
  const slow: ArgumentMetadata = { type: 'body', metatype: class WithoutFastPath extends dto {} };
  async function outcome(path: ArgumentMetadata, body: unknown): Promise<unknown> {
    try {
      return JSON.parse(JSON.stringify(await pipe.transform(body, path)));
    } catch (error) {
      if (error instanceof ValidationFailed) return { refused: error.errors };
      throw error;
    }
  }
  return { pipe, fast, slow, outcome };
}

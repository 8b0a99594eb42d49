import { Param, PipeTransform } from '@nestjs/common';
import { IdPrefix, isId } from '../shared/ids';
import { ValidationFailed } from '../shared/validation-failed';

/** Checks a path id has the resource's prefix and a ULID, e.g. `wf_01J…`; anything else is a 400. */
export class ParseIdPipe implements PipeTransform<string, string> {
  constructor(
    private readonly prefix: IdPrefix,
    private readonly param: string,
  ) {}

  transform(value: string): string {
    if (!isId(this.prefix, value)) {
      throw new ValidationFailed(
        [{ path: this.param, message: `must be an id of the form ${this.prefix}_ followed by a 26-character ULID` }],
        `"${value}" is not a valid ${this.param}`,
      );
    }
    return value;
  }
}

/** A path parameter that must be an id with the resource's prefix (see ParseIdPipe): `@IdParam('workflowId', 'wf')`. */
export function IdParam(name: string, prefix: IdPrefix): ParameterDecorator {
  return Param(name, new ParseIdPipe(prefix, name));
}

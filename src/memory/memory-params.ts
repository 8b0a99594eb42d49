import { ApiParam } from '@nestjs/swagger';
import { NAMESPACE_RULE } from '../shared/memory-namespace';
import { KEY_RULE } from './memory-address';

/** The namespace as a path parameter: one segment, its `/` sent as `%2F`. */
export const ApiNamespace = () =>
  ApiParam({
    name: 'namespace',
    description: `${NAMESPACE_RULE}; in the path, each "/" as %2F`,
    example: 'users%2Fada',
  });
export const ApiKey = () => ApiParam({ name: 'key', description: KEY_RULE, example: 'preferences' });

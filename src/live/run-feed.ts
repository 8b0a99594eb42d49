import { Injectable } from '@nestjs/common';
import { KeyedListeners } from '../shared/keyed-listeners';

/**
 * The text of runs executing in this instance, by run id, as the model writes it. It is not stored: a run's
 * stream shows it live to whoever watches then; the final output is recorded with the run's end.
 */
@Injectable()
export class RunFeed extends KeyedListeners<string> {}

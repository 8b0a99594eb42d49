import { IdGenerator, IdPrefix } from '../../src/shared/ids';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Deterministic ids for tests: valid ULID-shaped ids counting up from `start`, and UUID-shaped event ids.
 * Give each simulated instance its own `start` so their event ids differ.
 */
export class SequentialIds extends IdGenerator {
  private counter = 0;
  private events = 0;

  constructor(private readonly start = 1_000) {
    super();
    this.counter = start;
  }

  newId(prefix: IdPrefix): string {
    let n = this.counter++;
    let body = '';
    for (let i = 0; i < 26; i++) {
      body = CROCKFORD[n % 32] + body;
      n = Math.floor(n / 32);
    }
    return `${prefix}_${body}`;
  }

  newEventId(): string {
    const hex = `${this.start.toString(16).padStart(4, '0')}${(this.events++).toString(16).padStart(8, '0')}`;
    return `00000000-0000-4000-8000-${hex}`;
  }
}

import { IdGenerator, IdPrefix } from '../../src/shared/ids';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let instances = 0;

/**
 * Deterministic ids for tests: ULID-shaped ids counting up, and UUID-shaped event ids. Each generator is a
 * separate "instance" whose ids never collide with another's, as with two service instances on one store.
 */
export class SequentialIds extends IdGenerator {
  private next = 0;
  private nextEvent = 0;

  constructor(private readonly instance = ++instances) {
    super();
  }

  newId(prefix: IdPrefix): string {
    let n = this.instance * 1_000_000 + this.next++;
    let body = '';
    for (let i = 0; i < 26; i++) {
      body = CROCKFORD[n % 32] + body;
      n = Math.floor(n / 32);
    }
    return `${prefix}_${body}`;
  }

  newEventId(): string {
    const hex = (this.instance * 2 ** 32 + this.nextEvent++).toString(16).padStart(12, '0');
    return `00000000-0000-4000-8000-${hex}`;
  }
}

import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { Page, decodeCursor } from '../../read-models/page';
import { Clock } from '../../shared/clock';
import { ValidationFailed } from '../../shared/validation-failed';
import { namespaceProblem } from '../../shared/memory-namespace';
import { matchExpression } from './memory-text';
import { MemoryHit, MemorySearch, SearchMode } from './memory-search';
import { MemoryFilter, MemoryReadModel, MemoryVersionView, MemoryView } from './memory.read-model';

const cursorOf = (text: string) => Buffer.from(text).toString('base64url');
const FILTER_FIELD = /^[A-Za-z0-9_]{1,64}$/;

export class ListNamespacesQuery extends Query<{
  namespaces: Array<{ namespace: string; items: number }>;
  nextCursor: string | null;
}> {
  constructor(
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

export class GetMemoryQuery extends Query<MemoryView> {
  constructor(
    readonly namespace: string,
    readonly key: string,
    readonly asOf?: Date,
  ) {
    super();
  }
}

export class ListMemoryQuery extends Query<Page<MemoryView>> {
  constructor(
    readonly namespace: string,
    readonly prefix: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

export class MemoryHistoryQuery extends Query<{ versions: MemoryVersionView[]; nextCursor: string | null }> {
  constructor(
    readonly namespace: string,
    readonly key: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

export class SearchMemoryQuery extends Query<{ items: MemoryHit[] }> {
  constructor(
    readonly namespace: string,
    readonly query: string,
    readonly limit: number,
    readonly filter: MemoryFilter,
    readonly mode?: SearchMode,
  ) {
    super();
  }
}

@QueryHandler(GetMemoryQuery)
export class GetMemoryHandler implements IQueryHandler<GetMemoryQuery> {
  constructor(
    private readonly memory: MemoryReadModel,
    private readonly clock: Clock,
  ) {}

  async execute({ namespace, key, asOf }: GetMemoryQuery) {
    const item = asOf ? this.memory.asOf(namespace, key, asOf) : this.memory.get(namespace, key, this.clock.now());
    const when = asOf ? ` at ${asOf.toISOString()}` : '';
    if (!item) throw new DomainError('not_found', `No memory item ${key} in ${namespace}${when}`);
    return item;
  }
}

@QueryHandler(ListNamespacesQuery)
export class ListNamespacesHandler implements IQueryHandler<ListNamespacesQuery> {
  constructor(
    private readonly memory: MemoryReadModel,
    private readonly clock: Clock,
  ) {}

  async execute({ limit, cursor }: ListNamespacesQuery) {
    const after = decodeCursor(cursor, (namespace) => namespaceProblem(namespace) === undefined);
    const rows = this.memory.namespaces(after, limit + 1, this.clock.now());
    const namespaces = rows.slice(0, limit);
    const more = rows.length > limit;
    return { namespaces, nextCursor: more ? cursorOf(namespaces[namespaces.length - 1].namespace) : null };
  }
}

@QueryHandler(ListMemoryQuery)
export class ListMemoryHandler implements IQueryHandler<ListMemoryQuery> {
  constructor(
    private readonly memory: MemoryReadModel,
    private readonly clock: Clock,
  ) {}

  async execute({ namespace, prefix, limit, cursor }: ListMemoryQuery) {
    const after = decodeCursor(cursor, (key) => key.length > 0 && key.length <= 200);
    const rows = this.memory.list(namespace, prefix, after, limit + 1, this.clock.now());
    const items = rows.slice(0, limit);
    return { items, nextCursor: rows.length > limit ? cursorOf(items[items.length - 1].key) : null };
  }
}

@QueryHandler(MemoryHistoryQuery)
export class MemoryHistoryHandler implements IQueryHandler<MemoryHistoryQuery> {
  constructor(private readonly memory: MemoryReadModel) {}

  async execute({ namespace, key, limit, cursor }: MemoryHistoryQuery) {
    const after = Number(decodeCursor(cursor, (text) => /^[1-9][0-9]{0,9}$/.test(text)) || 0);
    const rows = this.memory.history(namespace, key, after, limit + 1);
    if (!rows.length && !after) throw new DomainError('not_found', `No memory item ${key} in ${namespace}, ever`);
    const versions = rows.slice(0, limit);
    return {
      versions,
      nextCursor: rows.length > limit ? cursorOf(String(versions[versions.length - 1].version)) : null,
    };
  }
}

@QueryHandler(SearchMemoryQuery)
export class SearchMemoryHandler implements IQueryHandler<SearchMemoryQuery> {
  constructor(private readonly memory: MemorySearch) {}

  async execute({ namespace, query, limit, filter, mode }: SearchMemoryQuery) {
    const errors = [];
    const problem = namespaceProblem(namespace);
    if (problem) errors.push({ path: 'namespace', message: problem });
    if (!matchExpression(query)) errors.push({ path: 'query', message: 'query must hold a word (letters or digits)' });
    const fields = Object.entries(filter);
    if (fields.length > 10) errors.push({ path: 'filter', message: 'filter takes at most 10 fields' });
    for (const [field, value] of fields) {
      if (!FILTER_FIELD.test(field))
        errors.push({ path: `filter.${field}`, message: 'a field is letters, digits and "_"' });
      else if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
        errors.push({ path: `filter.${field}`, message: 'must be a string, a number, a boolean or null' });
      }
    }
    if (errors.length) throw new ValidationFailed(errors);
    return { items: await this.memory.search({ namespace, query, limit, filter, mode }) };
  }
}

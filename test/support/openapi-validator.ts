import Ajv, { ValidateFunction } from 'ajv';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

interface Route {
  method: string;
  pattern: RegExp;
  template: string;
  operation: Operation;
}

/**
 * Checks responses against the service's own OpenAPI document: the status must be documented for the route, and
 * a JSON body must match the schema documented for that status and content type.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly routes: Route[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: { paths: Record<string, Record<string, Operation>> }) {
    this.ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    this.ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    this.ajv.addSchema(withNulls(document) as object, 'openapi');
    for (const [template, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, operation] of Object.entries(item)) {
        if (operation && typeof operation === 'object' && 'responses' in operation) {
          this.routes.push({ method: method.toUpperCase(), pattern, template, operation });
        }
      }
    }
  }

  /** The documented route for a request, if any (unknown routes have none). */
  route(method: string, path: string): Route | undefined {
    const bare = path.split('?')[0];
    return this.routes.find((route) => route.method === method && route.pattern.test(bare));
  }

  /** Throws when the response does not match the document. */
  check(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
    const route = this.route(method, path);
    if (!route) return;
    const response = route.operation.responses[String(status)];
    const where = `${method} ${route.template} answered ${status}`;
    if (!response) throw new Error(`${where}, which the OpenAPI document does not list`);
    const mediaType = contentType?.split(';')[0].trim();
    if (!mediaType || !response.content || body === undefined) return;
    const schema = response.content[mediaType]?.schema;
    if (!schema) throw new Error(`${where} with ${mediaType}, which the OpenAPI document does not list`);
    const key = `${route.template} ${method} ${status} ${mediaType}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(withNulls(schema) as object));
      this.compiled.set(key, validate);
    }
    if (!validate(body)) {
      throw new Error(`${where}: the body does not match its schema: ${this.ajv.errorsText(validate.errors)}`);
    }
  }
}

/** Makes the document's local references (`#/components/...`) point into the document added as `openapi`. */
function rebase(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"openapi#/'));
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema: the schema, or null. */
function withNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withNulls);
  if (value === null || typeof value !== 'object') return value;
  const { nullable, ...rest } = value as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, withNulls(inner)]));
  return nullable === true ? { anyOf: [converted, { type: 'null' }] } : converted;
}

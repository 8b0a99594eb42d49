import { NOT_BLANK } from '../../http/validation';
import { schemaFieldPath, jsonSchemaProblems } from '../../shared/json-schema';
import { FieldError, ValidationFailed } from '../../shared/validation-failed';
import { conditionProblem } from '../../workflows/step-condition';
import type { ScorerDefinition } from '../scorer';
import type { CreateScorerDto } from './scorer.dto';

/** The fields each type reads; any other type's field given is refused, so that nothing is silently ignored. */
const FIELDS = {
  exact: ['caseSensitive'],
  contains: ['caseSensitive'],
  json_schema: ['schema'],
  rule: ['rule'],
  judge: ['agent', 'rubric'],
} as const;
const TYPE_FIELDS = ['caseSensitive', 'schema', 'rule', 'agent', 'rubric'] as const;

/** The definition a request gives, or a 400 naming each field that is missing, wrong or not its type's. */
export async function definitionOf(dto: CreateScorerDto): Promise<ScorerDefinition> {
  const errors: FieldError[] = [];
  const reads: readonly string[] = FIELDS[dto.type];
  for (const field of TYPE_FIELDS) {
    if (dto[field] !== undefined && !reads.includes(field))
      errors.push({ path: field, message: `${field} is not read by a ${dto.type} scorer` });
  }
  const definition = await checked(dto, errors);
  if (errors.length) throw new ValidationFailed(errors);
  return definition!;
}

async function checked(dto: CreateScorerDto, errors: FieldError[]): Promise<ScorerDefinition | undefined> {
  switch (dto.type) {
    case 'exact':
    case 'contains':
      return { type: dto.type, caseSensitive: dto.caseSensitive ?? false };
    case 'json_schema': {
      if (dto.schema === undefined) {
        errors.push({ path: 'schema', message: 'schema is required for a json_schema scorer' });
        return undefined;
      }
      for (const { at, message } of await jsonSchemaProblems(dto.schema)) {
        const path = schemaFieldPath('schema', at);
        errors.push({ path, message: `${path} ${message}` });
      }
      return { type: 'json_schema', schema: dto.schema };
    }
    case 'rule': {
      if (dto.rule === undefined) {
        errors.push({ path: 'rule', message: 'rule is required for a rule scorer' });
        return undefined;
      }
      const problem = conditionProblem(dto.rule);
      if (problem) errors.push({ path: 'rule', message: problem.replace(/^when /, 'rule ') });
      return { type: 'rule', rule: dto.rule as Record<string, unknown> | boolean };
    }
    case 'judge': {
      const { agent, rubric } = dto;
      if (agent === undefined) errors.push({ path: 'agent', message: 'agent is required for a judge scorer' });
      if (rubric === undefined || !NOT_BLANK.test(rubric))
        errors.push({ path: 'rubric', message: 'rubric is required for a judge scorer, and must not be empty' });
      return { type: 'judge', agent: agent ?? '', rubric: rubric ?? '' };
    }
  }
}

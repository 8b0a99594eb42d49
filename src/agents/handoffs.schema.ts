import type { ApiPropertyOptions } from '@nestjs/swagger';
import { HANDOFF_INPUTS, MAX_HANDOFFS } from './handoffs';

/** `handoffs` in the OpenAPI document: each entry a name, or `{agent, input}`. */
export const HANDOFFS_FIELD: ApiPropertyOptions = {
  type: 'array',
  maxItems: MAX_HANDOFFS,
  items: {
    oneOf: [
      { type: 'string', maxLength: 200 },
      {
        type: 'object',
        required: ['agent'],
        properties: {
          agent: { type: 'string', maxLength: 200 },
          input: { type: 'string', enum: [...HANDOFF_INPUTS] },
        },
      },
    ],
  },
  example: ['billing', { agent: 'refunds', input: 'summary' }],
  description:
    'Agents it may hand the conversation to: the model sees `transfer_to_<name>` tools. An entry is a name (the next agent gets the whole conversation) or `{agent, input}` with `input` `all` (default), `last_user` (only the task) or `summary` (a summary the handing-off model writes). Default: none.',
};

import { CallToolResult, CompatibilityCallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolFailure } from '../executable-tool';

/**
 * What a run gets back from an MCP tool: its structured content if any, else its text, else its content
 * blocks as they are. A result with `isError` becomes a failure carrying the server's message.
 */
export function toolResultValue(result: CompatibilityCallToolResult): unknown {
  if ('toolResult' in result) return result.toolResult;
  const { content = [], structuredContent, isError } = result as CallToolResult;
  const texts = content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  if (isError) throw new ToolFailure(texts.join('\n') || 'The tool reported an error without a message');
  if (structuredContent !== undefined) return structuredContent;
  return texts.length === content.length ? texts.join('\n') : content;
}

import { isDeepStrictEqual } from 'node:util';
import type { ToolCall } from '../../agents/agent-run/agent-run.state';
import type { RecordedResults, ToolResult } from './tool-set';

/**
 * The tool results of a recorded run, for a trial that replays it: a call of the same tool with the same arguments
 * (compared as JSON values, key order aside) gets the recorded result instead of running the tool, each recorded
 * call once and in the order it was made. Calls of other agents, and calls that never got a result, are not kept.
 */
export class RecordedCalls implements RecordedResults {
  private readonly unused: ToolCall[];

  /** `replayedAlready`: the calls of the trial so far (a run resumed after a wait), whose replays are used up. */
  constructor(calls: ToolCall[], replayedAlready: ToolCall[] = []) {
    this.unused = calls.filter((call) => call.endedAt !== null && !call.tool.startsWith('agent:'));
    for (const call of replayedAlready) if (call.replayed) this.take(call.tool, call.input);
  }

  /** The recorded result of the first unused call of `tool` with `input`, which is then used; else undefined. */
  take(tool: string, input: unknown): ToolResult | undefined {
    const at = this.unused.findIndex((call) => call.tool === tool && isDeepStrictEqual(call.input, input));
    if (at < 0) return undefined;
    const [call] = this.unused.splice(at, 1);
    return call.error !== undefined ? { error: call.error } : { output: call.output ?? null };
  }
}

import { RunnableTool } from './tool';

/** A tool as its source provides it; the registry gives it a `modelName` per run. */
export type ExecutableTool = Omit<RunnableTool, 'modelName'>;

/** Throws inside `execute` when the tool fails; its message is what the model is told. */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
}

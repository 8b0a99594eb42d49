import { LoggerService } from '@nestjs/common';
import type { LogWarningsFunction } from 'ai';

/** The AI SDK writes its warnings to the console unless told otherwise: send them to the service's log instead. */
export function logAiSdkWarningsTo(logger: LoggerService): void {
  const log: LogWarningsFunction = ({ warnings, provider, model }) => {
    for (const warning of warnings) logger.warn(`${provider} ${model}: ${JSON.stringify(warning)}`);
  };
  globalThis.AI_SDK_LOG_WARNINGS = log;
}

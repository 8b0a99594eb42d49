import { Page } from 'playwright-core';
import { TestBrowser, launchBrowser } from './browser';
import { ChatCompletionsBody, ReplyFunction, ScriptedServer, startScriptedOpenAIServer } from './scripted-model-server';
import { TestApp, startTestApp } from './test-app';

/** What a console test file drives: the service on a scripted model server, and one page of Chromium. */
export interface ConsoleFixture {
  model: ScriptedServer<ChatCompletionsBody>;
  app: TestApp;
  browser: TestBrowser;
  page: Page;
}

export async function startConsole(
  script: ReplyFunction<ChatCompletionsBody>,
  viewport = { width: 1200, height: 900 },
  env: NodeJS.ProcessEnv = {},
): Promise<ConsoleFixture> {
  const model = await startScriptedOpenAIServer(script);
  const app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, ...env } });
  const browser = await launchBrowser();
  return { model, app, browser, page: await browser.newPage({ viewport }) };
}

/** Closes what `startConsole` started, as far as it got. */
export async function stopConsole({ browser, app, model }: Partial<ConsoleFixture>): Promise<void> {
  await browser?.close();
  await app?.close();
  await model?.close();
}

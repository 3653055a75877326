// Vitest global setup for the API tests: build once, start one stack, share its URLs.
import type { TestProject } from 'vitest/node';
import { buildIfNeeded } from '@/scripts/build-stamp';
import { printServerLogPath, printServerLogTail, resetServerLog } from './server-log';
import { startStack } from './stack';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  await buildIfNeeded(process.cwd());
  resetServerLog();
  const stack = await startStack({ REGISTRATION_LIMIT_PER_HOUR: '3', MESSAGE_LIMIT_PER_10_MIN: '20' });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('databaseUrl', stack.databaseUrl);
  project.provide('dataDir', stack.dataDir);
  return async () => {
    await stack.stop();
    // Runs after the reporters: the results stand above, then the servers' side of a failure.
    const { state } = project.vitest;
    const failed = state.getFiles().some((file) => file.projectName === project.name && file.result?.state === 'fail');
    if (failed || state.getUnhandledErrors().length > 0) {
      printServerLogTail();
    } else {
      printServerLogPath();
    }
  };
}

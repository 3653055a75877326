// Playwright reporter: after the results, the tail of the servers' log when the run did
// not pass, else one line naming it (see server-log.ts).
import type { FullResult, Reporter } from '@playwright/test/reporter';
import { printServerLogPath, printServerLogTail } from './server-log';

export default class ServerLogReporter implements Reporter {
  onEnd(result: FullResult): void {
    if (result.status === 'passed') printServerLogPath();
    else printServerLogTail();
  }

  printsToStdio(): boolean {
    return false;
  }
}

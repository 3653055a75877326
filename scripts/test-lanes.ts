// How `npm test` lays the API tests out on two cores. The API files mostly wait (on the server, on
// PostgreSQL, on a job sweep), so they run as two vitest processes side by side, each with its own
// stack (server and database): no data is shared between the lanes, only the machine.
//
// The second lane holds files that wait longest, most of them on servers of their own: the minute sweep
// of plan reminders and check-ins, a killed server's expired jobs, a minute of soak, the mail digest's
// delay, feed refreshes, push receipts and the OAuth stack. Everything else, and every new file, runs in
// the first lane. `npm test` prints each lane's time; move a file when they drift apart (docs/testing.md).
export const API_SECOND_LANE: readonly string[] = [
  'e2e/api/plan-reminders.test.ts',
  'e2e/api/soak.test.ts',
  'e2e/api/crash-mail.test.ts',
  'e2e/api/plan-safety.test.ts',
  'e2e/api/mail-digest.test.ts',
  'e2e/api/events.test.ts',
  'e2e/api/push.test.ts',
  'e2e/api/oauth.test.ts',
];

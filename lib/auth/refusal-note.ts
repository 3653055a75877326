// Auth.js turns a refused sign-in into a bare redirect (/signin?error=…), with no room
// for why or until when. The provider callbacks note the refusal here, in the request's
// async context, and the /auth handler adds it to that redirect so the page can say when
// to try again.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Refusal } from '../accounts/attempt-limits';

const notes = new AsyncLocalStorage<{ refusal?: Refusal }>();

/** Runs `fn` with a place for a refusal note; returns its result and the note, if any. */
export async function collectRefusal<T>(fn: () => Promise<T>): Promise<{ result: T; refusal: Refusal | undefined }> {
  const store: { refusal?: Refusal } = {};
  const result = await notes.run(store, fn);
  return { result, refusal: store.refusal };
}

export function noteRefusal(refusal: Refusal): void {
  const store = notes.getStore();
  if (store) store.refusal = refusal;
}

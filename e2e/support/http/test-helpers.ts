// Test-only: never imported by the app.
import { ApiError } from '@/lib/core/errors';

/** The ApiError a promise rejects with; anything else (or no rejection) fails the test. */
export async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

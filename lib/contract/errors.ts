// The error envelope every endpoint answers with on failure (SPEC 7), as a schema,
// so OpenAPI, the MCP tools and the guides describe exactly what the routes send.
import { z } from 'zod';
import { ERROR_ADVICE, ERROR_CODES, type ErrorCode } from '../core/errors';

export { ERROR_CODES };

export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES).describe('Stable machine-readable identifier; branch on this'),
    message: z.string().describe('What went wrong, for people'),
    hint: z.string().optional().describe('The next action that fixes it'),
    fields: z.record(z.string(), z.string()).optional().describe('Field name to problem, for validation errors'),
    plan: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Plan conflicts (409): the plan as it is now, the same record GET plans/{planId}.json returns'),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** A representative envelope for a code, for examples in the docs. */
export function exampleError(code: ErrorCode): ErrorEnvelope {
  const advice = ERROR_ADVICE[code];
  // The message is the code in words: the advice, which it would repeat, is the hint.
  const inWords = code.replace(/_/g, ' ');
  return {
    error: {
      code,
      message: inWords[0]!.toUpperCase() + inWords.slice(1),
      hint: advice,
      ...(code === 'validation_failed'
        ? { fields: { email: 'Enter a valid email address, like sam@example.com' } }
        : {}),
      ...(code === 'onboarding_incomplete' ? { fields: { photo: 'required' } } : {}),
    },
  };
}

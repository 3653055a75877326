// The age rules an operator may set, read here on the ground floor (as database-env.ts does) so that
// every domain applies the same rule without importing lib/config; config() shows the same values and
// docs/configuration.md lists them.

export interface AgeRules {
  /** MINIMUM_AGE (default 13, the contract's): younger people cannot register or set such a birthday. */
  minimumAge: number;
  /** TEEN_AGE_GAP_YEARS (default 2): how far apart two people under 18 may be born and still meet. */
  teenGapYears: number;
}

/** The age from which a person is an adult: the border between the two worlds (not configurable). */
export const ADULT_AGE = 18;
/** The contract's floor: MINIMUM_AGE may raise it, never lower it. */
export const CONTRACT_MINIMUM_AGE = 13;

function wholeNumberFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

export function ageRulesFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): AgeRules {
  return {
    minimumAge: wholeNumberFromEnv(env, 'MINIMUM_AGE', CONTRACT_MINIMUM_AGE, CONTRACT_MINIMUM_AGE, ADULT_AGE),
    teenGapYears: wholeNumberFromEnv(env, 'TEEN_AGE_GAP_YEARS', 2, 0, ADULT_AGE - CONTRACT_MINIMUM_AGE),
  };
}

let cached: AgeRules | undefined;
/** The rules of this process, read once. */
export function ageRules(): AgeRules {
  cached ??= ageRulesFromEnv();
  return cached;
}

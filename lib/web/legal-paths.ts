/** Where the privacy policy and the terms of use are (server/doors/legal.tsx answers them). */
export const LEGAL_PATHS = { privacy: '/privacy', terms: '/terms' } as const;

// Every bound the API puts on an input, in one place. The input classes (src/common/inputs/,
// src/modules/*/dto/) take their numbers from here, and each number reaches class-validator, the
// OpenAPI document and the GraphQL schema through one field definition (input-field.ts).
//
// Where the domain has a rule, the bound is the domain's, imported or cited, so that what passes
// validation is also what the domain accepts. The rest are sanity caps of the API (the domain
// has no upper bound on a token count): they keep one request's work bounded.

/** A catalog version id (UUID) or label (`2026-11-30`). */
export const VERSION_REF = { minLength: 1, maxLength: 100, pattern: /^[A-Za-z0-9][A-Za-z0-9._:-]*$/, patternMessage: 'must be a version id or label' } as const;
export const OFFER_ID = { pattern: /^[0-9a-f]{32}$/, patternMessage: 'must be an offer id (32 hex characters)' } as const;
export const GPU_SLUG = { minLength: 1, maxLength: 64, pattern: /^[a-z0-9][a-z0-9-]*$/, patternMessage: 'must be a GPU slug' } as const;

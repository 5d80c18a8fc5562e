/** Tables of the onboarding feature (none yet). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface OnboardingTables {}

/** Tables of the consent log (filled in by the consent-log feature). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ConsentLogTables {}

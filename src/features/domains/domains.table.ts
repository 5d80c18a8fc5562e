import type { Insertable, Selectable, Updateable } from 'kysely';

export interface DomainTable {
  id: string;
  client_id: string;
  /** Host name with the port when one was given, lower case. */
  name: string;
  path: string;
  /** Scheme the domain was created with (`https` unless the name said otherwise); the scanner uses it. */
  scheme: string;
  whitelabel: number;
  /** JSON object with every other Domain field (validated by the API schema before it is stored). */
  settings: string;
  /** Increases on every change a visitor could see; keys the widget cache. */
  config_revision: number;
  /** Increases on legally relevant changes; voids consents when consentResetOnLegalChange is on. */
  legal_revision: number;
  created_at: string;
  updated_at: string;
}

export type DomainRow = Selectable<DomainTable>;
export type NewDomainRow = Insertable<DomainTable>;
export type DomainRowUpdate = Updateable<DomainTable>;

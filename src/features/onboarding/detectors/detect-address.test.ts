import { describe, expect, it } from 'vitest';
import { detectAddress } from './detect-address.js';
import { htmlToText } from './html.js';

describe('detectAddress', () => {
  it.each([
    ['German', 'Impressum\nAngaben gemäß § 5 DDG\nBeispiel Consulting GmbH\nMusterstraße 12\n10115 Berlin\nTelefon: +49 30 1234567',
      { company: 'Beispiel Consulting GmbH', street: 'Musterstraße 12', zipCode: '10115', city: 'Berlin' }],
    ['Austrian with a label and country prefix', 'Impressum\nFirma: Muster & Söhne KG\nHauptstr. 5a\nA-1010 Wien',
      { company: 'Muster & Söhne KG', street: 'Hauptstr. 5a', zipCode: '1010', city: 'Wien' }],
    ['French', 'Mentions légales\nÉditeur du site\nExemple SARL\n12 rue de la Paix\n75002 Paris\nFrance',
      { company: 'Exemple SARL', street: '12 rue de la Paix', zipCode: '75002', city: 'Paris' }],
    ['Spanish on one line', 'Aviso legal\nEjemplo S.L., Calle Mayor 5, 28013 Madrid',
      { company: 'Ejemplo S.L.', street: 'Calle Mayor 5', zipCode: '28013', city: 'Madrid' }],
    ['Italian', 'Note legali\nEsempio S.r.l.\nVia Roma 10\n00184 Roma\nP. IVA 01234567890',
      { company: 'Esempio S.r.l.', street: 'Via Roma 10', zipCode: '00184', city: 'Roma' }],
    ['Dutch', 'Colofon\nVoorbeeld B.V.\nKeizersgracht 123\n1015 CJ Amsterdam\nKvK 12345678',
      { company: 'Voorbeeld B.V.', street: 'Keizersgracht 123', zipCode: '1015 CJ', city: 'Amsterdam' }],
    ['British', 'Imprint\nExample Ltd\n10 Downing Street\nLondon SW1A 2AA',
      { company: 'Example Ltd', street: '10 Downing Street', zipCode: 'SW1A 2AA', city: 'London' }],
    ['American', 'Legal notice\nAcme Inc.\n123 Main Street\nSpringfield, IL 62701',
      { company: 'Acme Inc.', street: '123 Main Street', zipCode: '62701', city: 'Springfield' }],
    ['a company without legal form', 'Impressum\nPraxis Dr. Sommer\nLindenallee 3\n50667 Köln',
      { company: 'Praxis Dr. Sommer', street: 'Lindenallee 3', zipCode: '50667', city: 'Köln' }],
  ])('reads a %s address', (_label, text, expected) => {
    expect(detectAddress(text)).toEqual(expected);
  });

  it('reads the address from imprint HTML', () => {
    const html = '<h1>Impressum</h1><p>Beispiel GmbH<br>Musterstra&szlig;e 12<br/>10115 Berlin</p><p>Tel. 030 1</p>';
    expect(detectAddress(htmlToText(html))).toEqual({ company: 'Beispiel GmbH', street: 'Musterstraße 12', zipCode: '10115', city: 'Berlin' });
  });

  it('keeps zip code and city when no street stands above them', () => {
    expect(detectAddress('Sitz der Gesellschaft: \n80331 München')).toEqual({ company: null, street: null, zipCode: '80331', city: 'München' });
  });

  it('does not take phone, register or VAT numbers for a zip code', () => {
    expect(detectAddress('Telefon 12345 Berlin\nHRB 12345 Amtsgericht\nUSt-IdNr. DE123456789')).toEqual({
      company: null, street: null, zipCode: null, city: null,
    });
  });

  it('answers with nulls for text without an address', () => {
    expect(detectAddress('Welcome to our shop!')).toEqual({ company: null, street: null, zipCode: null, city: null });
  });
});

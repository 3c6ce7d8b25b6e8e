import { describe, expect, it } from 'vitest';
import { dasherize, xmlDocument, XmlList, XmlSymbol } from './xml.ts';

describe('xml', () => {
  it('writes the forms the SDK converts: integer, boolean, nil, array, symbol, datetime', () => {
    const xml = xmlDocument('root', {
      count: 2,
      ok: true,
      nothing: null,
      list: new XmlList('item', [{ a: '1' }]),
      empty: new XmlList('item', []),
      attribute: new XmlSymbol('amount'),
      at: new Date('2026-01-02T03:04:05.678Z'),
      text: 'a < b & "c"',
    });
    expect(xml).toContain('<count type="integer">2</count>');
    expect(xml).toContain('<ok type="boolean">true</ok>');
    expect(xml).toContain('<nothing nil="true"/>');
    expect(xml).toContain('<list type="array"><item><a>1</a></item></list>');
    expect(xml).toContain('<empty type="array"/>');
    expect(xml).toContain('<attribute type="symbol">amount</attribute>');
    expect(xml).toContain('<at type="datetime">2026-01-02T03:04:05Z</at>');
    expect(xml).toContain('<text>a &lt; b &amp; &quot;c&quot;</text>');
  });

  it('dasherizes snake_case and camelCase', () => {
    expect(dasherize('payment_method_nonce')).toBe('payment-method-nonce');
    expect(dasherize('paymentMethodNonce')).toBe('payment-method-nonce');
  });
});

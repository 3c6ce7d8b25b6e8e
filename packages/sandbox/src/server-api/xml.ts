// The provider answers in XML with dasherized tags. Its SDK converts only type="integer|boolean|array|collection"
// and nil="true"; everything else (amounts, dates) stays a string. This writer produces exactly those forms.

export type XmlValue = string | number | boolean | null | Date | XmlSymbol | XmlList | XmlCollection | XmlElement;

/** An element's children, tag -> value, in document order. Tags are written as given (already dasherized). */
export interface XmlElement {
  readonly [tag: string]: XmlValue;
}

/** `<tag type="array">` holding one `<itemTag>` per item. */
export class XmlList {
  constructor(
    readonly itemTag: string,
    readonly items: readonly XmlValue[],
  ) {}
}

/** `<tag type="collection">`: some fields, then one `<itemTag>` per item (search result pages). */
export class XmlCollection {
  constructor(
    readonly fields: XmlElement,
    readonly itemTag: string,
    readonly items: readonly XmlValue[],
  ) {}
}

/** `<tag type="symbol">` (validation error attributes). */
export class XmlSymbol {
  constructor(readonly name: string) {}
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => {
    switch (char) {
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '&':
        return '&amp;';
      case '"':
        return '&quot;';
      default:
        return '&apos;';
    }
  });
}

/** 2026-11-21T05:16:08Z: the provider's datetime form (no milliseconds). */
export function xmlDateTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

function element(tag: string, value: XmlValue): string {
  if (value === null) return `<${tag} nil="true"/>`;
  if (typeof value === 'boolean') return `<${tag} type="boolean">${String(value)}</${tag}>`;
  if (typeof value === 'number') return `<${tag} type="integer">${String(value)}</${tag}>`;
  if (typeof value === 'string') return value === '' ? `<${tag}></${tag}>` : `<${tag}>${escapeXml(value)}</${tag}>`;
  if (value instanceof Date) return `<${tag} type="datetime">${xmlDateTime(value)}</${tag}>`;
  if (value instanceof XmlSymbol) return `<${tag} type="symbol">${escapeXml(value.name)}</${tag}>`;
  if (value instanceof XmlList) {
    if (value.items.length === 0) return `<${tag} type="array"/>`;
    return `<${tag} type="array">${value.items.map((item) => element(value.itemTag, item)).join('')}</${tag}>`;
  }
  if (value instanceof XmlCollection) {
    const fields = Object.entries(value.fields).map(([childTag, child]) => element(childTag, child));
    const items = value.items.map((item) => element(value.itemTag, item));
    return `<${tag} type="collection">${[...fields, ...items].join('')}</${tag}>`;
  }
  const children = Object.entries(value)
    .map(([childTag, child]) => element(childTag, child))
    .join('');
  return `<${tag}>${children}</${tag}>`;
}

export function xmlDocument(rootTag: string, value: XmlValue): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(rootTag, value)}\n`;
}

/** snake_case or camelCase -> dasherized tag. */
export function dasherize(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

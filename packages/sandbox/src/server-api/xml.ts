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

// Written by concatenation, children in a loop: an answer has about a hundred elements, and the arrays and closures
// of entries/map/join for each were a tenth of the sandbox's CPU for a sale (issue 10's sbcpu1 pass).
function element(tag: string, value: XmlValue): string {
  if (value === null) return `<${tag} nil="true"/>`;
  if (typeof value === 'string') return value === '' ? `<${tag}></${tag}>` : `<${tag}>${escapeXml(value)}</${tag}>`;
  if (typeof value === 'boolean') return `<${tag} type="boolean">${String(value)}</${tag}>`;
  if (typeof value === 'number') return `<${tag} type="integer">${String(value)}</${tag}>`;
  if (value instanceof Date) return `<${tag} type="datetime">${xmlDateTime(value)}</${tag}>`;
  if (value instanceof XmlSymbol) return `<${tag} type="symbol">${escapeXml(value.name)}</${tag}>`;
  if (value instanceof XmlList) {
    if (value.items.length === 0) return `<${tag} type="array"/>`;
    return `<${tag} type="array">${items(value.itemTag, value.items)}</${tag}>`;
  }
  if (value instanceof XmlCollection) {
    return `<${tag} type="collection">${children(value.fields)}${items(value.itemTag, value.items)}</${tag}>`;
  }
  return `<${tag}>${children(value)}</${tag}>`;
}

function children(value: XmlElement): string {
  let xml = '';
  for (const childTag of Object.keys(value)) xml += element(childTag, value[childTag] as XmlValue);
  return xml;
}

function items(itemTag: string, values: readonly XmlValue[]): string {
  let xml = '';
  for (const item of values) xml += element(itemTag, item);
  return xml;
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

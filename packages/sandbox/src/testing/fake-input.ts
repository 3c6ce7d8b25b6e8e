// Test support only: a stand-in for the hosted field's <input> under Node. Not exported from src/index.ts; its name
// does not match the test include pattern (src/**/*.test.ts[x]).
import type { FieldInput } from '../pages/hosted-fields/field.ts';

/** Records attributes and styles (by the CSSOM's camel-case names); focus() and type() dispatch the events a browser would. */
export class FakeInput extends EventTarget implements FieldInput {
  value = '';
  selectionStart: number | null = null;
  name = '';
  maxLength = -1;
  inputMode = '';
  placeholder = '';
  readonly attributes = new Map<string, string>();
  readonly style = {} as FieldInput['style'];
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  removeAttribute(name: string): void {
    this.attributes.delete(name);
  }
  focus(): void {
    this.dispatchEvent(new Event('focus'));
  }
  setSelectionRange(start: number): void {
    this.selectionStart = start;
  }
  /** Sets the whole value with the caret at its end, as typing at the end does. */
  type(value: string): void {
    this.value = value;
    this.selectionStart = value.length;
    this.dispatchEvent(new Event('input'));
  }
}

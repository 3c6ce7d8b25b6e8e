/** snake_case -> camelCase (the wire's parameter names -> ours). */
export function camelCase(name: string): string {
  // Most of the SDK's keys are one word: no pattern run for them.
  if (!name.includes('_')) return name;
  return name.replace(/_([a-z0-9])/g, (_match, char: string) => char.toUpperCase());
}

/** snake_case -> camelCase (the wire's parameter names -> ours). */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, char: string) => char.toUpperCase());
}

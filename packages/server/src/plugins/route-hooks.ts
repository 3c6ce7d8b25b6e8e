/** A route's hooks of one kind as a list: Fastify's onRoute hands them as one, a list, or none. */
export function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

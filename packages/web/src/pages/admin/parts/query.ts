import { navigate, usePath, useSearch } from '../../../router.tsx';

/**
 * A list's filters live in the page's query string: a filtered list can be linked, reloaded and reached again with
 * Back. `set` replaces the given members (an empty value removes one) and drops the cursor: new filters, first page.
 */
export function useQueryState() {
  const path = usePath();
  const search = useSearch();
  const params = new URLSearchParams(search);
  return {
    params,
    get: (name: string) => params.get(name) ?? '',
    set(changes: Record<string, string | null>, { keepCursor = false } = {}) {
      const next = new URLSearchParams(search);
      if (!keepCursor) next.delete('cursor');
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
      }
      const text = next.toString();
      navigate(text === '' ? path : `${path}?${text}`);
    },
  };
}

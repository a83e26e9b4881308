// The admin lists' filters live in the address, so a filtered list can be bookmarked or shared
// with the team: the values, a change that goes back to page 1, and the search typed with a pause.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { NativeSelect } from '../../ui/form-controls';

/**
 * The address's query as it is now. Changes start from it rather than from a render's `params`,
 * which may already be out of date: a second change made before the first one's render (a filter
 * clicked as the typed search settles) would otherwise write the first one over.
 */
export function currentParams(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}

export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
  const page = Number(params.get('page')) || 1;
  const set = (changes: Partial<Record<K | 'page', string>>) => {
    const next = currentParams();
    for (const [k, v] of Object.entries(changes) as Array<[string, string | undefined]>) if (v) next.set(k, v);
    else next.delete(k);
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  const clear = () => setParams(new URLSearchParams(), { replace: true });
  return { values, page, set, clear };
}

/** What is typed in a search box, put in the address once the typing pauses. */
export function useTypedSearch(current: string, apply: (q: string) => void) {
  const [typed, setTyped] = useState(current);
  useEffect(() => {
    const timer = setTimeout(() => typed.trim() !== current && apply(typed.trim()), 300);
    return () => clearTimeout(timer);
  });
  return [typed, setTyped] as const;
}

/** A labelled choice of a list filter, "any" first. */
export function SelectFilter({ label, value, any, options, onChange }: { label: string; value: string; any: string; options: Array<{ value: string; label: string }>; onChange: (value: string) => void }) {
  return (
    <label className="flex flex-col gap-1 text-sm text-neutral-200">
      {label}
      <NativeSelect value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </label>
  );
}

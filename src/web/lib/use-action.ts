// A button's server call on the public pages: pending while it runs, then its outcome. (The
// signed-in screens use TanStack Query; the public pages keep their first script small.)
import { useCallback, useRef, useState } from 'react';

export interface Action<V> {
  run(values: V): void;
  isPending: boolean;
  isSuccess: boolean;
}

export function useAction<V, R>(
  fn: (values: V) => Promise<R>,
  handlers: { onSuccess?: (result: R, values: V) => void | Promise<void>; onError?: (error: Error) => void } = {},
): Action<V> {
  const [state, setState] = useState<'idle' | 'pending' | 'success' | 'error'>('idle');
  const latest = useRef({ fn, handlers });
  latest.current = { fn, handlers };
  const run = useCallback((values: V) => {
    setState('pending');
    latest.current
      .fn(values)
      .then(async (result) => {
        setState('success');
        await latest.current.handlers.onSuccess?.(result, values);
      })
      .catch((error: Error) => {
        setState('error');
        latest.current.handlers.onError?.(error);
      });
  }, []);
  return { run, isPending: state === 'pending', isSuccess: state === 'success' };
}

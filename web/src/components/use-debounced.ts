import { useEffect, useState } from 'preact/hooks';

/** The value, once it has stopped changing for `ms` (so typing in a filter sends one request, not one a key). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

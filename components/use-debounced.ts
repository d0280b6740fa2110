'use client';
import { useEffect, useRef } from 'react';

/**
 * Calls `apply(value)` once `value` has stayed the same for `ms` (typing in a search box), so a list
 * is asked for once per pause rather than once per key.
 */
export function useDebounced<T>(value: T, apply: (value: T) => void, ms = 300) {
  const latest = useRef(apply);
  useEffect(() => {
    latest.current = apply;
  });
  useEffect(() => {
    const id = setTimeout(() => latest.current(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
}

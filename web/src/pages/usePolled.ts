// A resource of the API followed until it is finished (a batch, a reproduction): polled every
// 700 ms while it runs; a failed request is retried every 3 s, except a 404, which stops it.
import { useEffect, useState } from 'react';
import { ApiError } from '../api';

export interface Polled<T> {
  value: T | null;
  /** The last request's error; null once a request succeeds again. */
  error: { message: string; status: number } | null;
  /** Replaces the value (e.g. with what a cancel returned). */
  setValue: (value: T) => void;
  setError: (error: { message: string; status: number } | null) => void;
}

/** `key` identifies the resource: a new key starts over. */
export function usePolled<T>(key: string, load: () => Promise<T>, finished: (value: T) => boolean): Polled<T> {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<{ message: string; status: number } | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const v = await load();
        if (!live) return;
        setValue(v);
        setError(null);
        if (!finished(v)) timer = setTimeout(poll, 700);
      } catch (e) {
        if (!live) return;
        const err = e instanceof ApiError ? e : new ApiError(0, String(e));
        setError({ message: err.message, status: err.status });
        if (err.status !== 404) timer = setTimeout(poll, 3000);
      }
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `load` and `finished` are read for the key they came with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return { value, error, setValue, setError };
}

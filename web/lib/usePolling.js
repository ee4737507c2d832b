// Loads a URL now and again every few seconds while `live(data)` says the thing is still changing (a run in progress).
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, errorText } from './api.js';

export const REFRESH_MS = 3000;

/**
 * `T` is what the route answers: the server's reply type, named by the type of `live`'s parameter.
 * @template T
 * @param {string} path
 * @param {(data: T) => boolean} live
 * @returns {{ data: T | undefined; error: string | undefined }}
 */
export function usePolling(path, live) {
  const [data, setData] = useState(/** @type {T | undefined} */ (undefined));
  const [error, setError] = useState(/** @type {string | undefined} */ (undefined));
  useEffect(() => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    let stopped = false;
    // Handled either way (the reply or its error is shown): nothing to await.
    const load = () =>
      void (
        /** @type {Promise<T>} the reply of `path` */ (api('GET', path)).then(
          (d) => {
            if (stopped) return;
            setData(d);
            setError(undefined);
            if (live(d)) timer = setTimeout(load, REFRESH_MS);
          },
          (err) => {
            if (stopped) return;
            setError(errorText(err));
            // A refused request (bad id, mismatched runs) stays refused; the server gone is retried.
            if (err instanceof ApiError && (err.status === 0 || err.status >= 500))
              timer = setTimeout(load, REFRESH_MS);
          },
        )
      );
    setData(undefined);
    load();
    return () => ((stopped = true), clearTimeout(timer));
  }, [path]);
  return { data, error };
}

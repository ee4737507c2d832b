// Loads a URL now and again every few seconds while `live(data)` says the thing is still changing (a run in progress).
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';

export const REFRESH_MS = 3000;

export function usePolling(path, live = () => true) {
  const [data, setData] = useState(undefined);
  const [error, setError] = useState(undefined);
  useEffect(() => {
    let timer;
    let stopped = false;
    const load = () =>
      api('GET', path).then(
        (d) => {
          if (stopped) return;
          setData(d);
          setError(undefined);
          if (live(d)) timer = setTimeout(load, REFRESH_MS);
        },
        (err) => {
          if (stopped) return;
          setError(err.message);
          // A refused request (bad id, mismatched runs) stays refused; the server gone is retried.
          if (err.status === 0 || err.status >= 500) timer = setTimeout(load, REFRESH_MS);
        },
      );
    setData(undefined);
    load();
    return () => ((stopped = true), clearTimeout(timer));
  }, [path]);
  return { data, error };
}

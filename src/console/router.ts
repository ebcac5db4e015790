/** The console's address is its hash (`#/pullzones/12/settings`): pages are links, the back button works, the server serves one page. */
import { useEffect, useState } from 'preact/hooks';

export const segmentsOf = (hash: string): string[] => hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);

export function useRoute(): string[] {
  const [segments, setSegments] = useState(() => segmentsOf(location.hash));
  useEffect(() => {
    const changed = () => setSegments(segmentsOf(location.hash));
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return segments;
}

export const go = (path: string) => {
  location.hash = path;
};

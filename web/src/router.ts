import { useEffect, useState } from 'preact/hooks';

/** The page's address lives in the hash (`#/agents/agent_01…`), so the service serves one index.html. */
export function useHashPath(): string[] {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const update = () => setPath(currentPath());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return path;
}

function currentPath(): string[] {
  return location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

export function href(...segments: string[]): string {
  return '#/' + segments.map(encodeURIComponent).join('/');
}

export function navigate(...segments: string[]): void {
  location.hash = href(...segments);
}

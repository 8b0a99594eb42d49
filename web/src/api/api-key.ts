/** The API key the user gave, kept for this browser tab's session only. */
const STORAGE_KEY = 'workflows.apiKey';
/** `refused`: the service turned down the key the console sent. */
type Listener = (refused: boolean) => void;
const listeners = new Set<Listener>();

export function apiKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function setApiKey(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
}

/** The service answered 401: forget the key and ask for one, saying whether the key sent was refused. */
export function requireApiKey(): void {
  const refused = apiKey() !== null;
  sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener(refused);
}

export function onApiKeyRequired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function authHeaders(): Record<string, string> {
  const key = apiKey();
  return key ? { authorization: `Bearer ${key}` } : {};
}

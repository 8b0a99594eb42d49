/** Routes anyone may call, with or without a key, and without a rate limit: health, metrics, the API description. */
export function isPublicPath(url: string): boolean {
  const path = url.split('?')[0];
  return (
    path === '/health' ||
    path.startsWith('/health/') ||
    path === '/metrics' ||
    path === '/v1/openapi.json' ||
    path === '/docs' ||
    path.startsWith('/docs/')
  );
}

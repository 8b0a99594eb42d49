/**
 * SQLite's page cache per connection (the event store's threads', the read models'), in KiB (negative: a size,
 * not a page count). better-sqlite3 builds SQLite with 16 MB, which a busy process fills and keeps; the OS caches
 * the file as well, so a smaller one costs little.
 */
export const SQLITE_PAGE_CACHE_SIZE = -4096;

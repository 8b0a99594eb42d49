/**
 * The process's slots for reads of the log that serve clients (`SSE_MAX_CATCHING_UP`): a slice of a stream that is
 * catching up, or a JSON page of `GET /v1/events`. A read holds its slot until the client's socket has taken what
 * it read, so all of them together hold at most that many pages in memory, whatever the number of clients.
 */
export const LOG_READ_SLOTS = Symbol('LogReadSlots');

/** How long a client may take to take in one page or slice before its response is ended (it resumes later). */
export const SLOW_READER_MS = 30_000;

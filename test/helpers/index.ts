/**
 * Shared test fixtures: books in a fresh data directory, one clock helper,
 * a real server on a loopback port with the one request function, the CLI
 * in-process or as the real bin/acct, and waiting with a generous deadline.
 */
export * from './books.js';
export * from './clock.js';
export * from './http.js';
export * from './cli.js';
export * from './wait.js';
export * from './test-store.js';

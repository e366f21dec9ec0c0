/**
 * Shared test fixtures: books in a fresh data directory, one clock helper,
 * a real server on a loopback port with the one request function, and the
 * CLI in-process or as the real bin/acct.
 */
export * from './books.js';
export * from './clock.js';
export * from './http.js';
export * from './cli.js';

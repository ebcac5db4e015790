/**
 * LIMIT and OFFSET bound as values SQLite's planner cannot read. A bare `LIMIT ?` is a parameter
 * the planner looks at (since 3.4x), so each new binding, even of the same value, makes the next
 * step compile the statement again: ~5 µs in a loop, ~50 µs between requests. Every SQLite
 * statement binds its limits this way (test/store/sqlite-list-plans.test.ts).
 */
export const BOUND_LIMIT = 'LIMIT CAST(? AS INTEGER)';
export const BOUND_PAGE = 'LIMIT CAST(? AS INTEGER) OFFSET CAST(? AS INTEGER)';

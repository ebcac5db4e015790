/**
 * Values that are there at once or later. Almost every answer is computed synchronously; only a
 * Flatten target outside the store makes one wait, and that one case must not put every other
 * query through a promise (a microtask per query is measurable at DNS rates).
 * (No export may be named `then`: a module namespace with one is a thenable, and `await import()`
 * would call it.)
 */
export type Maybe<T> = T | Promise<T>;

export function andThen<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

export function all<T>(values: readonly Maybe<T>[]): Maybe<T[]> {
  return values.some((v) => v instanceof Promise) ? Promise.all(values) : (values as T[]);
}

/** Prefix ranges over file paths, the same for every store. */

/**
 * The least string above every path that starts with `prefix`, in byte order. Paths never hold
 * U+10FFFF (noncharacters are refused when a path is checked), so `prefix + U+10FFFF` is above
 * every path that starts with `prefix` and below every other path above them.
 */
export const prefixEnd = (prefix: string): string => `${prefix}\u{10FFFF}`;

/** Lengths of time in milliseconds, as the domain's rules count them (days and hours of UTC). */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

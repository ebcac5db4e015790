/** Calendar months (UTC), the period every charge is counted over. */

/** `2026-01` */
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);

export const monthStart = (month: string) => new Date(`${month}-01T00:00:00.000Z`);

export function nextMonth(month: string): string {
  const start = monthStart(month);
  return monthOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)));
}

export const daysIn = (month: string) => (monthStart(nextMonth(month)).getTime() - monthStart(month).getTime()) / 86_400_000;

/** The months from `first` up to, not including, `end`. */
export function monthsBetween(first: string, end: string): string[] {
  const out: string[] = [];
  for (let m = first; m < end; m = nextMonth(m)) out.push(m);
  return out;
}

/** `January 2026` */
export const monthName = (month: string) => monthStart(month).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

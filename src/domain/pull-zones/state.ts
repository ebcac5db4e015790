/**
 * When a pull zone serves. The specification: "Enabled is true unless resource limits were reached
 * or the account ran out of funds". `Suspended` is separate: set and cleared by the operator.
 *
 * | state   | event                                              | next    |
 * |---------|----------------------------------------------------|---------|
 * | enabled | usage reaches MonthlyBandwidthLimit (limit > 0)    | disabled|
 * | enabled | account balance set to 0 or below                  | disabled|
 * | disabled| limit raised above usage, or set to 0 (unlimited)  | enabled, if the account has funds |
 * | disabled| account balance set above 0                        | enabled, if under the limit |
 */
import type { PullZoneT } from '../../schemas/pull-zone.js';

export const hasFunds = (balance: number): boolean => balance > 0;

export const overBandwidthLimit = (zone: Pick<PullZoneT, 'MonthlyBandwidthLimit' | 'MonthlyBandwidthUsed'>): boolean =>
  zone.MonthlyBandwidthLimit > 0 && zone.MonthlyBandwidthUsed >= zone.MonthlyBandwidthLimit;

export const shouldBeEnabled = (zone: PullZoneT, balance: number): boolean => hasFunds(balance) && !overBandwidthLimit(zone);

/**
 * The store's own failure: the database cannot be reached. The store knows no domain, so it says
 * only this; the domain turns it into its "unavailable" error (domain/errors.ts `appErrorOf`),
 * which every plane answers with its 503.
 */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The store is unavailable; retry shortly.', { cause });
    this.name = 'StoreUnavailableError';
  }
}

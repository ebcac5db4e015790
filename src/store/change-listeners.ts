/** What both stores' change feeds share (see ChangeFeed): the listeners, told of each change as it is reported, and the generation that moves with it. */
import type { StoreChange } from './types.js';

export class ChangeListeners {
  /** The generation: moves with every change reported. */
  protected current = 0;
  private readonly listeners: ((change: StoreChange) => void)[] = [];

  subscribe(listener: (change: StoreChange) => void): void {
    this.listeners.push(listener);
  }

  emit(change: StoreChange): void {
    this.current++;
    for (const listener of this.listeners) listener(change);
  }
}

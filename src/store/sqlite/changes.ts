/**
 * The SQLite store's ChangeFeed. Writes made through this process are reported by the repositories
 * as they run; writes by other processes on the same file (the CLI next to a running server) show
 * up as a new `PRAGMA data_version`. Asking costs a read transaction (a few microseconds under
 * load), so it is asked once per turn of the event loop: requests handled in the same turn are
 * concurrent with any write made meanwhile, and the next turn sees it.
 */
import type Database from 'better-sqlite3';
import { ChangeListeners } from '../change-listeners.js';
import type { ChangeFeed } from '../types.js';

export class SqliteChangeFeed extends ChangeListeners implements ChangeFeed {
  private readonly dataVersionStmt;
  private seenDataVersion: number;
  private checkedThisTurn = false;
  private readonly nextTurn = () => {
    this.checkedThisTurn = false;
  };

  constructor(db: Database.Database) {
    super();
    this.dataVersionStmt = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.seenDataVersion = this.dataVersionStmt.get()!;
  }

  generation(): number {
    if (this.checkedThisTurn) return this.current;
    this.checkedThisTurn = true;
    setImmediate(this.nextTurn);
    const dataVersion = this.dataVersionStmt.get()!;
    if (dataVersion !== this.seenDataVersion) {
      this.seenDataVersion = dataVersion;
      this.emit({ type: 'all' });
    }
    return this.current;
  }
}

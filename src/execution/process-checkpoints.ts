import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { READ_DATABASE } from '../read-models/read-database';

/**
 * Where each process manager remembers how far it has handled the log. They live beside the read models: should
 * that file be rebuilt, the managers read the log again from the start, and handling an event twice changes nothing.
 */
@Injectable()
export class ProcessCheckpoints {
  private readonly loadStatement: Database.Statement<[string], { position: number }>;
  private readonly saveStatement: Database.Statement<[string, number]>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    db.exec('CREATE TABLE IF NOT EXISTS process_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
    this.loadStatement = db.prepare('SELECT position FROM process_checkpoints WHERE name = ?');
    this.saveStatement = db.prepare(
      'INSERT INTO process_checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
    );
  }

  load(name: string): bigint {
    return BigInt(this.loadStatement.get(name)?.position ?? 0);
  }

  save(name: string, position: bigint): void {
    this.saveStatement.run(name, Number(position));
  }
}

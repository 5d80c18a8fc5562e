import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withPreparedStatements } from './connect.js';

describe('SQLite statements kept prepared (the connection Kysely gets)', () => {
  const open = (max?: number) => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
    return { sqlite, db: withPreparedStatements(sqlite, max) };
  };

  it('hands out one statement per SQL text, and it runs with each call’s parameters', () => {
    const { sqlite, db } = open();
    const a = db.prepare('select n from t where n >= ? order by n');
    const b = db.prepare('select n from t where n >= ? order by n');
    expect(b).toBe(a);
    expect(a.all([2])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(b.all([3])).toEqual([{ n: 3 }]);
    expect(db.prepare('select n from t where n < ?')).not.toBe(a);
    sqlite.close();
  });

  it('never hands out a statement whose iterator is still open', () => {
    const { sqlite, db } = open();
    const sql = 'select n from t order by n';
    const first = db.prepare(sql);
    const rows = first.iterate([]);
    expect(rows.next().value).toEqual({ n: 1 });
    const second = db.prepare(sql);
    expect(second).not.toBe(first);
    expect(second.all([])).toHaveLength(3);
    // The open iterator goes on where it was.
    expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
    expect(db.prepare(sql)).toBe(first);
    sqlite.close();
  });

  it('keeps at most `max` statements, the oldest dropped first', () => {
    const { sqlite, db } = open(2);
    const one = db.prepare('select 1');
    const two = db.prepare('select 2');
    db.prepare('select 3');
    expect(db.prepare('select 2')).toBe(two);
    expect(db.prepare('select 1')).not.toBe(one);
    sqlite.close();
  });
});

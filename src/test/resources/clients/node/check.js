// Drives the proxy with mysql2 and its server-side prepared statements (.execute): every common
// type, a transaction across shards, rolled back and committed. Prints OK.
'use strict';
const mysql = require('mysql2/promise');
const assert = require('assert');

async function main() {
  const [port, db] = process.argv.slice(2);
  const root = await mysql.createConnection({ host: '127.0.0.1', port: Number(port), user: 'root', password: '' });
  await root.query(`DROP DATABASE IF EXISTS ${db}`);
  await root.query(`CREATE DATABASE ${db} CHARACTER SET utf8mb4`);
  await root.end();
  const conn = await mysql.createConnection({ host: '127.0.0.1', port: Number(port), user: 'root', password: '',
    database: db, charset: 'utf8mb4', timezone: 'Z', dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
  await conn.query('CREATE TABLE items (id BIGINT AUTO_INCREMENT PRIMARY KEY, i INT, big BIGINT, dec_v DECIMAL(20,6),'
    + ' dbl DOUBLE, s VARCHAR(100), dt DATETIME(6), d DATE, j JSON, b LONGBLOB, n INT NULL)');
  const blob = Buffer.alloc(1 << 20, 0xab);
  for (let k = 1; k <= 8; k++) {
    await conn.execute('INSERT INTO items (id, i, big, dec_v, dbl, s, dt, d, j, b, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [k, k * 7, (2n ** 40n + BigInt(k)).toString(), `${k}.123456`, k / 3, `zeile ${k} 😀 ünï`,
        '2024-02-29 13:14:15.123456', `2020-01-0${k}`, JSON.stringify({ k }), k === 1 ? blob : Buffer.from([k]), null]);
  }
  const [rows] = await conn.execute('SELECT id, i, big, dec_v, dbl, s, dt, d, j, b, n FROM items WHERE id > ? ORDER BY id', [0]);
  assert.strictEqual(rows.length, 8);
  for (const r of rows) {
    const k = Number(r.id);
    assert.strictEqual(Number(r.i), k * 7);
    assert.strictEqual(String(r.big), (2n ** 40n + BigInt(k)).toString());
    assert.strictEqual(String(r.dec_v), `${k}.123456`);
    assert.ok(Math.abs(r.dbl - k / 3) < 1e-12);
    assert.strictEqual(r.s, `zeile ${k} 😀 ünï`);
    assert.strictEqual(r.dt, '2024-02-29 13:14:15.123456');
    assert.strictEqual(r.d, `2020-01-0${k}`);
    assert.deepStrictEqual(typeof r.j === 'string' ? JSON.parse(r.j) : r.j, { k });
    assert.ok(Buffer.compare(r.b, k === 1 ? blob : Buffer.from([k])) === 0);
    assert.strictEqual(r.n, null);
  }
  for (const outcome of ['rollback', 'commit']) {
    await conn.beginTransaction();
    for (let k = 1; k <= 8; k++) {
      await conn.execute('UPDATE items SET i = i + 1000 WHERE id = ?', [k]);
    }
    await (outcome === 'commit' ? conn.commit() : conn.rollback());
    const [[{ total }]] = await conn.query('SELECT SUM(i) AS total FROM items');
    assert.strictEqual(Number(total), 7 * 36 + (outcome === 'commit' ? 8000 : 0), outcome);
  }
  await conn.end();
  console.log('OK');
}

main().catch((e) => { console.error(e); process.exit(1); });

"""Drives the proxy with one Python MySQL driver, as a new user would: the driver's defaults
(autocommit off), every common type, a transaction across shards, and the issue's regressions.
Prints OK at the end; any failure raises with what differed."""
import datetime
import decimal
import json
import sys

module_name, port, db = sys.argv[1], int(sys.argv[2]), sys.argv[3]
driver = __import__(module_name)


def connect(**extra):
    if module_name == "MySQLdb":
        return driver.connect(host="127.0.0.1", port=port, user="root", passwd="", charset="utf8mb4", **extra)
    return driver.connect(host="127.0.0.1", port=port, user="root", password="", charset="utf8mb4", **extra)


def expect(what, actual, wanted):
    if actual != wanted:
        raise AssertionError(f"{what}: got {actual!r}, wanted {wanted!r}")


conn = connect()
cur = conn.cursor()
# Autocommit is off: the reads below open a transaction on every shard; DDL commits it first.
cur.execute("SELECT COUNT(*) FROM information_schema.SCHEMATA")
cur.execute(f"DROP DATABASE IF EXISTS {db}")
cur.execute(f"CREATE DATABASE {db} CHARACTER SET utf8mb4")
cur.execute(f"USE {db}")
cur.execute("CREATE TABLE items (id BIGINT AUTO_INCREMENT PRIMARY KEY, i INT, big BIGINT, dec_v DECIMAL(20,6),"
            " dbl DOUBLE, s VARCHAR(100), dt DATETIME(6), d DATE, j JSON, b LONGBLOB, n INT NULL)")
cur.execute("CREATE TABLE ref (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20))")
cur.execute("CREATE TABLE uns (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20))")
cur.execute("SELECT COUNT(*) FROM items")
expect("rows before", cur.fetchone()[0], 0)
# A statement that commits implicitly after a read across shards (the session must not answer 1399).
conn.autocommit(True)
cur.execute("SELECT COUNT(*) FROM items")
conn.autocommit(False)

blob = bytes(range(256)) * 4096  # 1 MiB
rows = []
for k in range(1, 9):
    rows.append((k, k * 7, 2 ** 40 + k, decimal.Decimal(f"{k}.123456"), k / 3, f"zeile {k} \U0001F600 ünï",
                 datetime.datetime(2024, 2, 29, 13, 14, 15, 123456 + k), datetime.date(2020, 1, k),
                 json.dumps({"k": k, "tags": ["a", "b"]}), blob if k == 1 else bytes([k]) * k, None))
cur.executemany("INSERT INTO items (id, i, big, dec_v, dbl, s, dt, d, j, b, n)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", rows)
conn.commit()
cur.execute("SELECT id, i, big, dec_v, dbl, s, dt, d, j, b, n FROM items ORDER BY id")
got = cur.fetchall()
expect("row count", len(got), len(rows))
for want, have in zip(rows, got):
    for c, (w, h) in enumerate(zip(want, have)):
        if c == 8:
            expect(f"json of row {want[0]}", json.loads(h), json.loads(w))
        elif c == 4:
            expect(f"double of row {want[0]}", abs(h - w) < 1e-12, True)
        else:
            expect(f"column {c} of row {want[0]}", bytes(h) if isinstance(h, (bytes, bytearray)) else h, w)

# A transaction across shards: rolled back, then committed.
cur.execute("UPDATE items SET i = -1 WHERE id IN (1, 2, 3, 4, 5, 6, 7, 8)")
conn.rollback()
cur.execute("SELECT COUNT(*) FROM items WHERE i = -1")
expect("rolled back", cur.fetchone()[0], 0)
cur.execute("UPDATE items SET i = i + 1000 WHERE id = 1")
cur.execute("UPDATE items SET i = i + 1000 WHERE id = 2")
cur.execute("UPDATE items SET i = i + 1000 WHERE id = 3")
conn.commit()
cur.execute("SELECT SUM(i) FROM items WHERE id IN (1, 2, 3)")
expect("committed", int(cur.fetchone()[0]), 3000 + 7 + 14 + 21)

# A savepoint taken before other shards joined (as mariadb-dump --single-transaction takes it).
cur.execute("SELECT i FROM items WHERE id = 1")
cur.execute("SAVEPOINT sp")
cur.execute("UPDATE items SET s = 'changed'")
cur.execute("ROLLBACK TO SAVEPOINT sp")
cur.execute("SELECT COUNT(*) FROM items WHERE s = 'changed'")
expect("rolled back to the savepoint", cur.fetchone()[0], 0)
conn.commit()

# INSERT without a column list, and an explicit id before one the sequence draws, in one transaction.
cur.execute("INSERT INTO items VALUES (100, 1, 1, 1, 1, 'x', NOW(6), CURDATE(), '{}', 'b', NULL),"
            " (101, 1, 1, 1, 1, 'y', NOW(6), CURDATE(), '{}', 'b', NULL)")
cur.execute("INSERT INTO items (id, s) VALUES (500, 'explicit')")
cur.execute("INSERT INTO items (s) VALUES ('drawn')")
drawn = cur.lastrowid
conn.commit()
if not drawn > 500:
    raise AssertionError(f"the drawn id {drawn} is not past the explicit 500")
cur.execute("SELECT COUNT(*) FROM items")
expect("rows after", cur.fetchone()[0], 12)

# Tables on one shard, or the same on every shard, count by one as one server does.
cur.execute("INSERT INTO uns (v) VALUES ('a'), ('b'), ('c')")
cur.execute("INSERT INTO ref (v) VALUES ('a'), ('b')")
conn.commit()
cur.execute("SELECT id FROM uns ORDER BY id")
expect("unsharded ids", [r[0] for r in cur.fetchall()], [1, 2, 3])
cur.execute("SELECT id FROM ref ORDER BY id")
expect("reference ids", [r[0] for r in cur.fetchall()], [1, 2])
conn.close()

# A database that does not exist is refused at connect.
try:
    connect(**{("db" if module_name == "MySQLdb" else "database"): "no_such_db_" + db})
    raise AssertionError("connecting to a missing database succeeded")
except driver.OperationalError as e:
    expect("error code", e.args[0], 1049)
print("OK")

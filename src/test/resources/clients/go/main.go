// Drives the proxy with go-sql-driver/mysql and its defaults (server-side prepared statements):
// every common type, a transaction across shards, rolled back and committed. Prints OK.
package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"time"

	_ "github.com/go-sql-driver/mysql"
)

func check(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		os.Exit(1)
	}
}

func expect(what string, got, want interface{}) {
	if fmt.Sprint(got) != fmt.Sprint(want) {
		fmt.Fprintf(os.Stderr, "%s: got %v, want %v\n", what, got, want)
		os.Exit(1)
	}
}

func main() {
	port, db := os.Args[1], os.Args[2]
	root, err := sql.Open("mysql", "root@tcp(127.0.0.1:"+port+")/?parseTime=true&loc=UTC")
	check(err, "open")
	_, err = root.Exec("DROP DATABASE IF EXISTS " + db)
	check(err, "drop")
	_, err = root.Exec("CREATE DATABASE " + db + " CHARACTER SET utf8mb4")
	check(err, "create database")
	root.Close()
	conn, err := sql.Open("mysql", "root@tcp(127.0.0.1:"+port+")/"+db+"?parseTime=true&loc=UTC&charset=utf8mb4")
	check(err, "open db")
	conn.SetMaxOpenConns(1)
	_, err = conn.Exec("CREATE TABLE items (id BIGINT AUTO_INCREMENT PRIMARY KEY, i INT, big BIGINT, dec_v DECIMAL(20,6)," +
		" dbl DOUBLE, s VARCHAR(100), dt DATETIME(6), d DATE, j JSON, b LONGBLOB, n INT NULL)")
	check(err, "create table")

	blob := bytes.Repeat([]byte{0, 1, 2, 0xfe, 0xff}, 1<<18)
	dt := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	for k := 1; k <= 8; k++ {
		b := []byte{byte(k)}
		if k == 1 {
			b = blob
		}
		_, err = conn.Exec("INSERT INTO items (id, i, big, dec_v, dbl, s, dt, d, j, b, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			k, k*7, int64(1)<<40+int64(k), fmt.Sprintf("%d.123456", k), float64(k)/3, fmt.Sprintf("zeile %d 😀 ünï", k),
			dt, time.Date(2020, 1, k, 0, 0, 0, 0, time.UTC), fmt.Sprintf(`{"k": %d}`, k), b, nil)
		check(err, "insert")
	}
	rows, err := conn.Query("SELECT id, i, big, dec_v, dbl, s, dt, d, j, b, n FROM items WHERE id > ? ORDER BY id", 0)
	check(err, "select")
	count := 0
	for rows.Next() {
		var id, big int64
		var i int
		var dec, s, j string
		var dbl float64
		var gotDt, d time.Time
		var b []byte
		var n sql.NullInt64
		check(rows.Scan(&id, &i, &big, &dec, &dbl, &s, &gotDt, &d, &j, &b, &n), "scan")
		count++
		expect("i", i, id*7)
		expect("big", big, int64(1)<<40+id)
		expect("dec", dec, fmt.Sprintf("%d.123456", id))
		expect("s", s, fmt.Sprintf("zeile %d 😀 ünï", id))
		expect("dt", gotDt.Equal(dt), true)
		expect("d", d.Day(), id)
		expect("null", n.Valid, false)
		if id == 1 {
			expect("blob", bytes.Equal(b, blob), true)
		}
	}
	check(rows.Err(), "rows")
	expect("rows", count, 8)

	tx, err := conn.Begin()
	check(err, "begin")
	for _, id := range []int{1, 2, 3, 4, 5, 6, 7, 8} {
		_, err = tx.Exec("UPDATE items SET i = i + 1000 WHERE id = ?", id)
		check(err, "update")
	}
	check(tx.Rollback(), "rollback")
	var sum int
	check(conn.QueryRow("SELECT SUM(i) FROM items").Scan(&sum), "sum")
	expect("after rollback", sum, 7*36)
	tx, err = conn.Begin()
	check(err, "begin")
	for _, id := range []int{1, 2, 3, 4, 5, 6, 7, 8} {
		_, err = tx.Exec("UPDATE items SET i = i + 1000 WHERE id = ?", id)
		check(err, "update")
	}
	check(tx.Commit(), "commit")
	check(conn.QueryRow("SELECT SUM(i) FROM items").Scan(&sum), "sum")
	expect("after commit", sum, 7*36+8000)
	fmt.Println("OK")
}

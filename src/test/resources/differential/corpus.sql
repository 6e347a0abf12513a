# The differential corpus: every statement runs on one plain server and through the proxy on
# four shards, and must give the same answer (or, when listed as refused, the stated error).
# Format (see Corpus.java): one statement per line, optional [options] in front:
#   [prefix N]  ordered by the first N columns only (ties in any order)
#   [fold]      strings compared up to case and accents (collation-equal values may show either way)
#   [unordered] compare as a multiset although the text says ORDER BY (in a subquery, or ties)
#   [noparam]   keep the literals in the text for the prepared-statement run
#   [refused CODE: fragment]  the proxy must refuse it with this error
#   [prepared refused CODE: fragment]  ... in the prepared-statement run only
# Warehouses 1-2 live on shard 0, 3-4 on shard 1, 5-6 on shard 2, 7-8 on shard 3; sbtest1,
# sbtest2 and metrics are hashed by id; item is a reference table; notes lives on shard 2.

# ---- TPC-C New-Order --------------------------------------------------------------------------
SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = 3 AND c_d_id = 1 AND c_id = 4
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 7 AND c_w_id = w_id AND c_d_id = 2 AND c_id = 5
SELECT w_tax FROM warehouse WHERE w_id = 3
SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = 3 AND d_id = 1 FOR UPDATE
SELECT i_price, i_name, i_data FROM item WHERE i_id = 7
SELECT i_price, i_name, i_data FROM item WHERE i_id IN (3, 9, 27) ORDER BY i_id
SELECT s_quantity, s_data, s_dist_01 FROM stock WHERE s_i_id = 7 AND s_w_id = 3 FOR UPDATE
SELECT s_i_id, s_quantity FROM stock WHERE s_w_id = 3 AND s_i_id IN (1, 5, 9, 13) ORDER BY s_i_id FOR UPDATE
# ---- TPC-C Payment ----------------------------------------------------------------------------
SELECT w_street_1, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = 5
SELECT d_street_1, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = 5 AND d_id = 2
SELECT COUNT(c_id) FROM customer WHERE c_w_id = 5 AND c_d_id = 2 AND c_last = 'BARBAR'
SELECT COUNT(c_id) AS namecnt FROM customer WHERE c_w_id = 6 AND c_d_id = 1 AND c_last = 'elan'
[unordered] SELECT c_id FROM customer WHERE c_w_id = 5 AND c_d_id = 2 AND c_last = 'barbar' ORDER BY c_first
[prefix 1] SELECT c_first, c_id, c_middle, c_last, c_street_1, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer WHERE c_w_id = 2 AND c_d_id = 3 AND c_last = 'zoe' ORDER BY c_first
SELECT c_first, c_middle, c_last, c_street_1, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer WHERE c_w_id = 4 AND c_d_id = 1 AND c_id = 6 FOR UPDATE
SELECT c_data FROM customer WHERE c_w_id = 4 AND c_d_id = 1 AND c_id = 6
# ---- TPC-C Order-Status -----------------------------------------------------------------------
SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = 8 AND c_d_id = 3 AND c_id = 2
SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = 2 AND o_d_id = 1 AND o_c_id = 3 ORDER BY o_id DESC
SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = 2 AND o_d_id = 1 AND o_c_id = 3 ORDER BY o_id DESC LIMIT 1
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = 2 AND ol_d_id = 1 AND ol_o_id = 2
# ---- TPC-C Delivery ---------------------------------------------------------------------------
SELECT COALESCE(MIN(no_o_id), 0) FROM new_orders WHERE no_d_id = 1 AND no_w_id = 4
SELECT no_o_id FROM new_orders WHERE no_d_id = 2 AND no_w_id = 4 ORDER BY no_o_id ASC LIMIT 1
SELECT o_c_id FROM orders WHERE o_id = 4 AND o_d_id = 1 AND o_w_id = 4
SELECT SUM(ol_amount) FROM order_line WHERE ol_o_id = 4 AND ol_d_id = 1 AND ol_w_id = 4
# ---- TPC-C Stock-Level ------------------------------------------------------------------------
SELECT d_next_o_id FROM district WHERE d_w_id = 6 AND d_id = 3
SELECT COUNT(DISTINCT(s_i_id)) FROM order_line, stock WHERE ol_w_id = 6 AND ol_d_id = 3 AND ol_o_id < 6 AND ol_o_id >= 1 AND s_w_id = 6 AND s_i_id = ol_i_id AND s_quantity < 60
SELECT COUNT(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id WHERE ol.ol_w_id = 7 AND s.s_quantity < 80
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE s_w_id = ol_w_id AND s_i_id = ol_i_id AND s_quantity < 60

# ---- sysbench ---------------------------------------------------------------------------------
SELECT c FROM sbtest1 WHERE id = 17
SELECT c FROM sbtest2 WHERE id = 150
SELECT c FROM sbtest1 WHERE id BETWEEN 10 AND 19
SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 10 AND 109
SELECT c FROM sbtest1 WHERE id BETWEEN 30 AND 39 ORDER BY c
SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 40 AND 139 ORDER BY c
SELECT id, k, c, pad FROM sbtest1 WHERE k IN (1, 5, 9, 33)
SELECT COUNT(k) FROM sbtest2 WHERE k BETWEEN 1 AND 5 OR k BETWEEN 10 AND 12
SELECT id, k FROM sbtest2 WHERE id IN (1, 2, 3, 64, 65, 66, 129, 130) ORDER BY id
SELECT id FROM sbtest1 WHERE id IN (5) OR id IN (77)
SELECT k, COUNT(*) FROM sbtest1 GROUP BY k ORDER BY k
SELECT k, COUNT(*) AS n FROM sbtest1 GROUP BY k HAVING n > 4 ORDER BY n DESC, k
SELECT MIN(id), MAX(id), COUNT(*), SUM(k), AVG(k) FROM sbtest2
SELECT id, k FROM sbtest1 ORDER BY k DESC, id LIMIT 7
SELECT id, k FROM sbtest1 ORDER BY k, id DESC LIMIT 5 OFFSET 20
SELECT id, k FROM sbtest1 WHERE k > 40 ORDER BY id LIMIT 3, 4
SELECT COUNT(*) FROM sbtest1 s1 JOIN sbtest2 s2 ON s2.id = s1.id WHERE s1.k = s2.k
SELECT s1.id, s1.k, s2.k FROM sbtest1 s1 JOIN sbtest2 s2 ON s1.id = s2.id WHERE s1.id BETWEEN 1 AND 30 ORDER BY s1.id
SELECT s1.id, s2.c FROM sbtest1 s1 LEFT JOIN sbtest2 s2 ON s1.id = s2.id AND s2.k > 25 WHERE s1.k < 5 ORDER BY s1.id
SELECT s1.id, s2.id FROM sbtest1 s1 JOIN sbtest2 s2 ON s1.k = s2.k WHERE s1.id < 5
SELECT COUNT(*) FROM sbtest1 s1, sbtest2 s2 WHERE s1.id = s2.k

# ---- COUNT(*) and plain aggregates over every shard -------------------------------------------
SELECT COUNT(*) FROM customer
SELECT COUNT(*) FROM customer WHERE c_credit = 'BC'
SELECT COUNT(*) FROM customer WHERE c_w_id > 100
SELECT COUNT(*), SUM(c_balance), MIN(c_balance), MAX(c_balance), AVG(c_balance) FROM customer
SELECT COUNT(*), SUM(c_balance), MIN(c_balance), MAX(c_balance), AVG(c_balance) FROM customer WHERE c_w_id > 100
SELECT COUNT(c_data), COUNT(c_middle), COUNT(1), COUNT(*) FROM customer
SELECT SUM(c_discount), AVG(c_discount), MIN(c_discount), MAX(c_discount) FROM customer
SELECT AVG(c_id), AVG(c_w_id), SUM(c_id) FROM customer
SELECT AVG(ratio), SUM(ratio), MIN(ratio), MAX(ratio), COUNT(ratio) FROM metrics
SELECT SUM(qty), MIN(qty), MAX(qty), AVG(qty), COUNT(qty) FROM metrics
SELECT SUM(amount), MIN(amount), MAX(amount), AVG(amount) FROM metrics
SELECT MIN(day), MAX(day), MIN(at_time), MAX(at_time), MIN(stamp), MAX(stamp) FROM metrics
SELECT MIN(flag), MAX(flag), SUM(flag), AVG(flag) FROM metrics
SELECT MIN(raw), MAX(raw) FROM metrics
[fold] SELECT MIN(tag), MAX(tag) FROM metrics
[fold] SELECT MIN(c_last), MAX(c_last), MIN(c_first), MAX(c_first) FROM customer
SELECT MIN(c_since), MAX(c_since) FROM customer
SELECT SUM(ol_amount), AVG(ol_amount), COUNT(*), MIN(ol_delivery_d), MAX(ol_delivery_d) FROM order_line
SELECT COUNT(*) AS c, SUM(k) AS total FROM sbtest2 WHERE k < 10
SELECT SUM(k) + 0 FROM sbtest1 WHERE id = 3
SELECT COUNT(*) FROM orders WHERE o_carrier_id IS NULL
SELECT COUNT(*) FROM order_line WHERE ol_delivery_d IS NOT NULL
SELECT COUNT(*) FROM metrics WHERE tag = 'alpha'
SELECT COUNT(*) FROM metrics WHERE tag LIKE 'g%'
SELECT COUNT(*) FROM metrics WHERE kind = 'green'
SELECT MAX(s_quantity) FROM stock WHERE s_i_id = 12
SELECT SUM(s_quantity), COUNT(*) FROM stock WHERE s_i_id BETWEEN 5 AND 10
SELECT ANY_VALUE(w_id) FROM warehouse WHERE w_id = 6
SELECT SUM(c_balance) / COUNT(*) FROM customer
[prepared refused 1235: a value in the select list of a prepared statement] SELECT COUNT(*) + 1 FROM customer
SELECT COUNT(DISTINCT c_last) FROM customer
SELECT SUM(DISTINCT k) FROM sbtest1
SELECT GROUP_CONCAT(w_name) FROM warehouse
[prepared refused 1235: comes back rounded in the text protocol] SELECT STD(k) FROM sbtest1
[prepared refused 1235: comes back rounded in the text protocol] SELECT VARIANCE(c_balance) FROM customer

# ---- GROUP BY and HAVING ----------------------------------------------------------------------
SELECT c_w_id, COUNT(*), SUM(c_balance), MIN(c_balance), MAX(c_balance), AVG(c_balance) FROM customer GROUP BY c_w_id ORDER BY c_w_id
SELECT c_w_id, c_d_id, COUNT(*), SUM(c_balance) FROM customer GROUP BY c_w_id, c_d_id ORDER BY c_w_id DESC, c_d_id
SELECT c_d_id, COUNT(*), AVG(c_balance) FROM customer GROUP BY c_d_id
SELECT c_credit, COUNT(*), SUM(c_balance), AVG(c_discount) FROM customer GROUP BY c_credit ORDER BY c_credit
SELECT c_credit, COUNT(*) FROM customer GROUP BY c_credit HAVING COUNT(*) > 20
SELECT c_credit, COUNT(*) FROM customer GROUP BY c_credit HAVING COUNT(*) < 20
[fold] SELECT c_last, COUNT(*) FROM customer GROUP BY c_last ORDER BY c_last
[fold] SELECT c_last, COUNT(*), SUM(c_balance) FROM customer GROUP BY c_last HAVING COUNT(*) >= 10 ORDER BY COUNT(*) DESC, c_last
SELECT c_last COLLATE utf8mb4_bin AS last_bin, COUNT(*) FROM customer GROUP BY last_bin ORDER BY last_bin
SELECT COUNT(*), SUM(c_balance) FROM customer GROUP BY c_last ORDER BY COUNT(*), SUM(c_balance)
SELECT HEX(WEIGHT_STRING(c_last)), COUNT(*) FROM customer GROUP BY c_last ORDER BY 1
[fold] SELECT c_city, c_state, COUNT(*) FROM customer GROUP BY c_city, c_state ORDER BY c_city, c_state
[fold] SELECT c_state, MIN(c_balance), MAX(c_balance) FROM customer GROUP BY c_state ORDER BY c_state
[fold] SELECT c_state, COUNT(*) FROM customer WHERE c_balance > 0 GROUP BY c_state HAVING SUM(c_balance) > 50000 ORDER BY c_state
SELECT c_w_id, SUM(c_balance) FROM customer GROUP BY c_w_id HAVING SUM(c_balance) > 0 AND COUNT(*) = 24 ORDER BY c_w_id
SELECT c_w_id, SUM(c_balance) AS total FROM customer GROUP BY c_w_id HAVING total < 100000 OR c_w_id = 8 ORDER BY total DESC
SELECT c_w_id, MAX(c_balance) AS m FROM customer GROUP BY c_w_id HAVING m IS NOT NULL ORDER BY m, c_w_id
SELECT c_w_id, AVG(c_balance) AS a FROM customer GROUP BY c_w_id HAVING a > 1000 ORDER BY a DESC
SELECT c_w_id, COUNT(*) FROM customer WHERE c_balance < 0 GROUP BY c_w_id HAVING NOT COUNT(*) > 6 ORDER BY 1
SELECT c_w_id, COUNT(*) FROM customer GROUP BY 1 ORDER BY 1 DESC
SELECT c_w_id AS w, COUNT(*) AS n FROM customer GROUP BY w ORDER BY n DESC, w
SELECT c_w_id, COUNT(*) FROM customer GROUP BY c_w_id ORDER BY COUNT(*) DESC, c_w_id LIMIT 3
SELECT c_w_id, SUM(c_balance) FROM customer GROUP BY c_w_id ORDER BY SUM(c_balance) DESC LIMIT 2 OFFSET 1
SELECT c_w_id, MIN(c_since) FROM customer GROUP BY c_w_id ORDER BY MIN(c_since), c_w_id
SELECT grp, COUNT(*) FROM metrics GROUP BY grp COLLATE utf8mb4_bin ORDER BY grp COLLATE utf8mb4_bin
[fold] SELECT grp, COUNT(*), SUM(amount), AVG(ratio), MAX(qty) FROM metrics GROUP BY grp ORDER BY grp
[fold] SELECT tag, COUNT(*) FROM metrics GROUP BY tag ORDER BY tag
[fold] SELECT tag, COUNT(*) FROM metrics GROUP BY tag ORDER BY COUNT(*) DESC, tag
SELECT day, COUNT(*) FROM metrics GROUP BY day ORDER BY day DESC
SELECT flag, COUNT(*) FROM metrics GROUP BY flag ORDER BY flag
SELECT at_time, COUNT(*) FROM metrics GROUP BY at_time ORDER BY at_time
SELECT YEAR(day) AS y, COUNT(*), SUM(amount) FROM metrics GROUP BY YEAR(day) ORDER BY y
SELECT YEAR(c_since), COUNT(*) FROM customer GROUP BY YEAR(c_since) ORDER BY YEAR(c_since)
SELECT qty > 9223372036854775807 AS big, COUNT(*) FROM metrics GROUP BY big ORDER BY big
SELECT raw, COUNT(*) FROM metrics GROUP BY raw ORDER BY raw
SELECT ol_w_id, ol_d_id, COUNT(*), SUM(ol_amount), AVG(ol_quantity) FROM order_line GROUP BY ol_w_id, ol_d_id ORDER BY ol_w_id, ol_d_id
SELECT ol_i_id, COUNT(*) AS n, SUM(ol_amount) FROM order_line GROUP BY ol_i_id HAVING n >= 12 ORDER BY n DESC, ol_i_id
SELECT o_ol_cnt, COUNT(*) FROM orders GROUP BY o_ol_cnt ORDER BY o_ol_cnt
SELECT o_carrier_id, COUNT(*) FROM orders GROUP BY o_carrier_id ORDER BY o_carrier_id
SELECT o_carrier_id, COUNT(*) FROM orders GROUP BY o_carrier_id ORDER BY o_carrier_id DESC
SELECT s_w_id, SUM(s_quantity), MIN(s_quantity), MAX(s_quantity) FROM stock WHERE s_i_id < 20 GROUP BY s_w_id ORDER BY s_w_id
SELECT w.w_id, COUNT(*) FROM warehouse w JOIN district d ON d.d_w_id = w.w_id GROUP BY w.w_id ORDER BY w.w_id
SELECT c.c_w_id, COUNT(*) FROM customer c JOIN orders o ON o.o_w_id = c.c_w_id AND o.o_d_id = c.c_d_id AND o.o_c_id = c.c_id GROUP BY c.c_w_id ORDER BY c.c_w_id
SELECT c_w_id, COUNT(*) FROM customer GROUP BY c_w_id WITH ROLLUP
SELECT c_w_id, COUNT(DISTINCT c_last) FROM customer GROUP BY c_w_id
[prepared refused 1235: a value in the select list of a prepared statement] SELECT c_w_id, SUM(c_balance) * 2 FROM customer GROUP BY c_w_id
SELECT c_w_id, COUNT(*) FROM customer GROUP BY c_w_id ORDER BY COUNT(*) + 1, c_w_id
SELECT c_w_id, COUNT(*) FROM customer GROUP BY c_w_id HAVING COUNT(*) + 1 > 2
SELECT c_w_id FROM customer GROUP BY c_w_id HAVING SUM(c_balance) BETWEEN 0 AND 100000

# ---- DISTINCT ---------------------------------------------------------------------------------
SELECT DISTINCT c_w_id FROM customer
SELECT DISTINCT c_w_id FROM customer ORDER BY c_w_id DESC
SELECT DISTINCT c_w_id, c_d_id FROM customer ORDER BY c_w_id, c_d_id
SELECT DISTINCT c_credit FROM customer ORDER BY c_credit
[fold] SELECT DISTINCT c_last FROM customer ORDER BY c_last
[fold] SELECT DISTINCT c_last FROM customer
[fold] SELECT DISTINCT c_city FROM customer ORDER BY c_city DESC
[fold] SELECT DISTINCT c_first, c_middle FROM customer ORDER BY c_first, c_middle
SELECT DISTINCT c_last COLLATE utf8mb4_bin AS b FROM customer ORDER BY b
SELECT DISTINCT o_carrier_id FROM orders ORDER BY o_carrier_id
SELECT DISTINCT ol_quantity, ol_supply_w_id FROM order_line ORDER BY ol_supply_w_id
SELECT DISTINCT k FROM sbtest1 WHERE k < 10 ORDER BY k LIMIT 4
SELECT DISTINCT k FROM sbtest2 ORDER BY k DESC LIMIT 3 OFFSET 2
SELECT DISTINCT day FROM metrics WHERE day IS NOT NULL ORDER BY day LIMIT 5
SELECT DISTINCT flag < 0 FROM metrics
SELECT DISTINCT raw FROM metrics ORDER BY raw
[fold] SELECT DISTINCT grp FROM metrics ORDER BY grp
SELECT DISTINCT author FROM notes ORDER BY author
SELECT DISTINCT COUNT(*) FROM customer GROUP BY c_w_id
SELECT DISTINCT * FROM warehouse

# ---- ORDER BY: several keys, directions, ties, NULLs, collations ------------------------------
SELECT c_w_id, c_d_id, c_id, c_last FROM customer ORDER BY c_last, c_w_id, c_d_id, c_id LIMIT 10
SELECT c_w_id, c_d_id, c_id, c_last FROM customer ORDER BY c_last DESC, c_w_id, c_d_id, c_id LIMIT 25
[prefix 1; fold] SELECT c_last, c_w_id, c_d_id, c_id FROM customer ORDER BY c_last
[prefix 1; fold] SELECT c_last, c_w_id, c_id FROM customer ORDER BY c_last DESC
[prefix 2; fold] SELECT c_last, c_first, c_w_id, c_d_id, c_id FROM customer ORDER BY c_last, c_first DESC
[prefix 1] SELECT c_balance, c_w_id, c_d_id, c_id FROM customer ORDER BY c_balance
[prefix 1] SELECT c_balance, c_w_id, c_d_id, c_id FROM customer ORDER BY c_balance DESC
SELECT c_balance, c_w_id, c_d_id, c_id FROM customer ORDER BY c_balance DESC, c_w_id, c_d_id, c_id LIMIT 15
SELECT c_balance, c_w_id, c_d_id, c_id FROM customer ORDER BY c_balance, c_w_id DESC, c_d_id DESC, c_id DESC LIMIT 12 OFFSET 30
SELECT c_w_id, c_d_id, c_id, c_data FROM customer ORDER BY c_data, c_w_id, c_d_id, c_id LIMIT 40
SELECT c_w_id, c_d_id, c_id, c_data FROM customer ORDER BY c_data DESC, c_w_id, c_d_id, c_id LIMIT 40
SELECT c_w_id, c_d_id, c_id, c_middle FROM customer ORDER BY c_middle, c_w_id, c_d_id, c_id
SELECT c_w_id, c_d_id, c_id, c_middle FROM customer ORDER BY c_middle DESC, c_id, c_w_id, c_d_id
SELECT c_w_id, c_d_id, c_id FROM customer ORDER BY c_since, c_w_id, c_d_id, c_id LIMIT 20
SELECT c_w_id, c_d_id, c_id, c_since FROM customer ORDER BY c_since DESC LIMIT 20
SELECT c_id, c_w_id, c_d_id FROM customer ORDER BY c_first, c_last, c_w_id, c_d_id, c_id LIMIT 30
SELECT c_first, c_last, c_w_id, c_d_id, c_id FROM customer ORDER BY c_first COLLATE utf8mb4_bin, c_last COLLATE utf8mb4_bin, c_w_id, c_d_id, c_id
SELECT c_first, c_w_id, c_d_id, c_id FROM customer ORDER BY LOWER(c_first), c_w_id, c_d_id, c_id LIMIT 50
SELECT c_first, c_w_id, c_d_id, c_id FROM customer ORDER BY CHAR_LENGTH(c_first) DESC, c_w_id, c_d_id, c_id LIMIT 30
SELECT c_w_id, c_d_id, c_id, c_balance + c_ytd_payment AS due FROM customer ORDER BY due, c_w_id, c_d_id, c_id LIMIT 10
SELECT c_w_id, c_d_id, c_id FROM customer ORDER BY c_balance * -1, c_w_id, c_d_id, c_id LIMIT 10
SELECT c_w_id, c_d_id, c_id FROM customer ORDER BY 1 DESC, 2, 3 LIMIT 9
SELECT c_w_id AS w, c_d_id AS d, c_id AS c FROM customer ORDER BY w, d DESC, c LIMIT 11
SELECT * FROM warehouse ORDER BY w_id
SELECT * FROM warehouse ORDER BY w_ytd DESC, w_id
SELECT * FROM district ORDER BY d_w_id DESC, d_id DESC
SELECT * FROM customer ORDER BY c_w_id, c_d_id, c_id LIMIT 5
SELECT w.* FROM warehouse w ORDER BY w.w_name
[fold] SELECT w_city, w_id FROM warehouse ORDER BY w_city, w_id
SELECT w_state, w_id FROM warehouse ORDER BY w_state DESC, w_id
SELECT id, tag FROM metrics ORDER BY tag, id
SELECT id, tag FROM metrics ORDER BY tag DESC, id DESC
SELECT id, grp FROM metrics ORDER BY grp, id
SELECT id, amount FROM metrics ORDER BY amount, id
SELECT id, amount FROM metrics ORDER BY amount DESC, id LIMIT 17
SELECT id, ratio FROM metrics ORDER BY ratio, id
SELECT id, ratio FROM metrics ORDER BY ratio DESC, id LIMIT 8 OFFSET 3
SELECT id, qty FROM metrics ORDER BY qty, id
SELECT id, qty FROM metrics ORDER BY qty DESC, id LIMIT 10
SELECT id, day FROM metrics ORDER BY day, id
SELECT id, at_time FROM metrics ORDER BY at_time, id
SELECT id, at_time FROM metrics ORDER BY at_time DESC, id LIMIT 20
SELECT id, stamp FROM metrics ORDER BY stamp DESC, id
SELECT id, flag FROM metrics ORDER BY flag, id
SELECT id, raw FROM metrics ORDER BY raw, id
SELECT id, raw FROM metrics ORDER BY raw DESC, id LIMIT 10
SELECT id FROM metrics ORDER BY tag COLLATE utf8mb4_bin, id
SELECT id, tag, grp FROM metrics WHERE id < 60 ORDER BY grp DESC, tag, id
[refused 1235: ENUM] SELECT id, kind FROM metrics ORDER BY kind, id
SELECT id, CAST(kind AS CHAR) AS k FROM metrics ORDER BY k, id
SELECT id, author, score FROM notes ORDER BY author, id
SELECT id, author, score FROM notes ORDER BY score DESC, id
SELECT id, created FROM notes ORDER BY created, id LIMIT 10
SELECT i_id, i_name FROM item ORDER BY i_name, i_id
SELECT i_id, i_price FROM item ORDER BY i_price DESC, i_id LIMIT 5
SELECT o_w_id, o_d_id, o_id, o_carrier_id FROM orders ORDER BY o_carrier_id, o_w_id, o_d_id, o_id
SELECT o_w_id, o_d_id, o_id, o_carrier_id FROM orders ORDER BY o_carrier_id DESC, o_w_id, o_d_id, o_id LIMIT 30
SELECT o_w_id, o_d_id, o_id FROM orders ORDER BY o_entry_d DESC, o_w_id LIMIT 10
SELECT ol_w_id, ol_d_id, ol_o_id, ol_number, ol_delivery_d FROM order_line ORDER BY ol_delivery_d, ol_w_id, ol_d_id, ol_o_id, ol_number LIMIT 50
SELECT id, k FROM sbtest2 ORDER BY k, id LIMIT 0
SELECT id, k FROM sbtest2 ORDER BY k, id LIMIT 1000
SELECT id, k FROM sbtest2 ORDER BY k, id LIMIT 140, 1000
SELECT id, k FROM sbtest2 ORDER BY k, id LIMIT 5000, 10
SELECT id FROM sbtest1 LIMIT 0
SELECT id, ROW_NUMBER() OVER (ORDER BY k, id) FROM sbtest1
[refused 1235: SQL_CALC_FOUND_ROWS] SELECT SQL_CALC_FOUND_ROWS id FROM sbtest1 LIMIT 3
SELECT SQL_CALC_FOUND_ROWS c_id FROM customer WHERE c_w_id = 3 ORDER BY c_id LIMIT 2
SELECT FOUND_ROWS()
SELECT id FROM sbtest1 WHERE id < 6 ORDER BY id
[noparam] SELECT FOUND_ROWS(), FOUND_ROWS() * 2
SELECT FOUND_ROWS() + 10 AS after_one_row

# ---- LIMIT without ORDER BY (row count only, any rows) ----------------------------------------
SELECT COUNT(*) FROM (SELECT id FROM sbtest1 WHERE id = 5 LIMIT 10) AS t
SELECT w_id FROM warehouse WHERE w_id = 2 LIMIT 5

# ---- IN lists and key ranges ------------------------------------------------------------------
SELECT w_id, w_name FROM warehouse WHERE w_id IN (1, 3, 5, 7) ORDER BY w_id
SELECT w_id, w_name FROM warehouse WHERE w_id IN (2, 1) ORDER BY w_id
SELECT w_id FROM warehouse WHERE w_id IN (8)
SELECT w_id FROM warehouse WHERE w_id IN (42, 99)
SELECT w_id FROM warehouse WHERE w_id NOT IN (1, 2, 3)
SELECT c_w_id, c_id FROM customer WHERE c_w_id IN (1, 8) AND c_d_id = 2 AND c_id IN (1, 2) ORDER BY c_w_id, c_id
SELECT COUNT(*) FROM customer WHERE c_w_id IN (3, 4)
SELECT COUNT(*), SUM(c_balance) FROM customer WHERE c_w_id IN (2, 5, 6) AND c_credit = 'GC'
SELECT d_w_id, d_id FROM district WHERE d_w_id BETWEEN 2 AND 5 ORDER BY d_w_id, d_id
SELECT d_w_id, d_id FROM district WHERE d_w_id > 6 OR d_w_id < 2 ORDER BY d_w_id, d_id
SELECT d_w_id, d_id FROM district WHERE d_w_id = 4 OR d_w_id = 5 ORDER BY d_w_id DESC, d_id
SELECT id FROM sbtest1 WHERE id IN (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16) ORDER BY id
SELECT id, k FROM sbtest2 WHERE id IN (100, 101, 102) AND k IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20) ORDER BY id
SELECT id FROM sbtest1 WHERE id = -5
SELECT id FROM sbtest1 WHERE id = 0
SELECT id FROM metrics WHERE id IN (1, 2, 3) AND tag IS NULL
SELECT id FROM metrics WHERE tag IN ('alpha', 'BETA', 'zeta') ORDER BY id
SELECT id, day FROM metrics WHERE day IN ('2021-03-05', '2022-07-12', '2023-01-01') ORDER BY id
SELECT id FROM metrics WHERE amount IN (0, 1.5, -2.25) ORDER BY id
SELECT w_id FROM warehouse WHERE w_id = '3'
SELECT w_id FROM warehouse WHERE w_id = 3.0
SELECT w_id FROM warehouse WHERE w_id = NULL
SELECT w_id FROM warehouse WHERE w_id <=> NULL
SELECT w_id FROM warehouse WHERE w_id IS NULL

# ---- joins that stay on one shard, reference tables, unsharded tables -------------------------
SELECT ol.ol_number, i.i_name, i.i_price FROM order_line ol JOIN item i ON i.i_id = ol.ol_i_id WHERE ol.ol_w_id = 5 AND ol.ol_d_id = 1 AND ol.ol_o_id = 1 ORDER BY ol.ol_number
SELECT ol.ol_w_id, COUNT(*), SUM(i.i_price) FROM order_line ol JOIN item i ON i.i_id = ol.ol_i_id GROUP BY ol.ol_w_id ORDER BY ol.ol_w_id
SELECT o.o_w_id, o.o_id, COUNT(ol.ol_number) FROM orders o LEFT JOIN order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id WHERE o.o_d_id = 1 GROUP BY o.o_w_id, o.o_id ORDER BY o.o_w_id, o.o_id
SELECT c.c_w_id, c.c_id, h.h_amount FROM customer c JOIN history h ON h.h_c_w_id = c.c_w_id AND h.h_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id AND h.h_c_id = c.c_id WHERE c.c_w_id = 6 AND c.c_d_id = 1 ORDER BY c.c_id
SELECT w.w_id, d.d_id, d.d_next_o_id FROM warehouse w, district d WHERE d.d_w_id = w.w_id AND w.w_id IN (1, 6) ORDER BY w.w_id, d.d_id
SELECT COUNT(*), SUM(s1.k - s2.k) FROM sbtest1 s1 JOIN sbtest2 s2 USING (id)
SELECT COUNT(*) FROM new_orders no JOIN orders o ON o.o_w_id = no.no_w_id AND o.o_d_id = no.no_d_id AND o.o_id = no.no_o_id
SELECT s.s_w_id, s.s_i_id, i.i_name FROM stock s JOIN item i ON i.i_id = s.s_i_id WHERE s.s_quantity > 95 ORDER BY s.s_w_id, s.s_i_id
SELECT i_id, i_name, i_price FROM item WHERE i_price > 30 ORDER BY i_id
SELECT COUNT(*), SUM(i_price), AVG(i_price) FROM item
[fold] SELECT i_name FROM item ORDER BY i_name LIMIT 10
SELECT id, author, body, created, score FROM notes WHERE id < 10 ORDER BY id
SELECT author, COUNT(*), AVG(score) FROM notes GROUP BY author ORDER BY author
SELECT n.id, i.i_name FROM notes n JOIN item i ON i.i_id = n.id ORDER BY n.id
SELECT n.id, w.w_name FROM notes n JOIN warehouse w ON w.w_id = n.id
SELECT n.id, w.w_name FROM notes n JOIN warehouse w ON w.w_id = n.id WHERE w.w_id = 5
SELECT n.id, w.w_name FROM notes n JOIN warehouse w ON w.w_id = n.id WHERE w.w_id = 1
SELECT o.o_id, i.i_name FROM orders o JOIN order_line ol ON ol.ol_o_id = o.o_id JOIN item i ON i.i_id = ol.ol_i_id JOIN sbtest1 s ON s.id = o.o_c_id
SELECT c.c_id, o.o_id FROM customer c JOIN orders o ON o.o_c_id = c.c_id WHERE c.c_w_id = 1
SELECT COUNT(*) FROM customer c JOIN orders o ON o.o_c_id = c.c_id AND o.o_d_id = c.c_d_id
SELECT w.w_id, m.id FROM warehouse w JOIN metrics m ON m.id = w.w_id
SELECT * FROM warehouse w1 JOIN warehouse w2 ON w2.w_id = w1.w_id + 1
SELECT w1.w_id, w2.w_id FROM warehouse w1 JOIN warehouse w2 ON w2.w_id = w1.w_id WHERE w1.w_id < 4 ORDER BY w1.w_id

# ---- subqueries -------------------------------------------------------------------------------
SELECT c_id, c_balance FROM customer WHERE c_w_id = 2 AND c_d_id = 1 AND c_balance > (SELECT AVG(c_balance) FROM customer WHERE c_w_id = 2) ORDER BY c_id
SELECT o_id FROM orders o WHERE o_w_id = 7 AND o_d_id = 2 AND EXISTS (SELECT 1 FROM new_orders n WHERE n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id) ORDER BY o_id
SELECT o_w_id, o_id FROM orders o WHERE EXISTS (SELECT 1 FROM new_orders n WHERE n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id) AND o_d_id = 3 ORDER BY o_w_id, o_id
SELECT COUNT(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM new_orders n WHERE n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id)
SELECT c_w_id, c_id FROM customer c WHERE c_d_id = 1 AND c_balance = (SELECT MAX(c2.c_balance) FROM customer c2 WHERE c2.c_w_id = c.c_w_id AND c2.c_d_id = 1) ORDER BY c_w_id, c_id
SELECT c_w_id, c_id FROM customer WHERE c_id IN (SELECT o_c_id FROM orders WHERE o_w_id = 3 AND o_d_id = 1) AND c_w_id = 3 AND c_d_id = 1 ORDER BY c_id
SELECT i_id FROM item WHERE i_id IN (SELECT ol_i_id FROM order_line WHERE ol_w_id = 4) ORDER BY i_id
SELECT w_id, (SELECT COUNT(*) FROM district d WHERE d.d_w_id = w.w_id) AS districts FROM warehouse w ORDER BY w_id
SELECT t.w, t.n FROM (SELECT c_w_id AS w, COUNT(*) AS n FROM customer WHERE c_w_id = 4 GROUP BY c_w_id) AS t
SELECT t.id FROM (SELECT id FROM sbtest1 WHERE k < 4) AS t ORDER BY t.id
SELECT id FROM sbtest1 WHERE k IN (SELECT i_id FROM item WHERE i_price > 40) ORDER BY id
SELECT c_id FROM customer WHERE c_balance > (SELECT AVG(c_balance) FROM customer)
SELECT c_w_id, c_id FROM customer WHERE c_balance = (SELECT MAX(c_balance) FROM customer)
SELECT * FROM (SELECT c_w_id, COUNT(*) AS n FROM customer GROUP BY c_w_id) AS t
SELECT id FROM sbtest1 WHERE k = (SELECT MAX(k) FROM sbtest2)
SELECT id FROM sbtest1 WHERE id IN (SELECT k FROM sbtest2)
SELECT w_id FROM warehouse WHERE w_id IN (SELECT id FROM sbtest1 WHERE k = 3)
SELECT w_id FROM warehouse UNION SELECT d_w_id FROM district
SELECT id FROM sbtest1 WHERE id < 3 UNION ALL SELECT id FROM sbtest2 WHERE id < 3
SELECT w_id FROM warehouse WHERE w_id = 2 UNION SELECT d_w_id FROM district WHERE d_w_id = 2
SELECT 1 + 1, 'x', NULL
SELECT CONCAT('a', 'b') AS ab, 3 * 4 AS twelve
SELECT DATABASE()

# ---- every warehouse, so every shard answers the TPC-C point statements ----------------------
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 1 AND c_w_id = w_id AND c_d_id = 2 AND c_id = 1
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 2 AND c_w_id = w_id AND c_d_id = 3 AND c_id = 2
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 3 AND c_w_id = w_id AND c_d_id = 1 AND c_id = 3
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 4 AND c_w_id = w_id AND c_d_id = 2 AND c_id = 4
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 5 AND c_w_id = w_id AND c_d_id = 3 AND c_id = 5
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 6 AND c_w_id = w_id AND c_d_id = 1 AND c_id = 6
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 7 AND c_w_id = w_id AND c_d_id = 2 AND c_id = 7
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 8 AND c_w_id = w_id AND c_d_id = 3 AND c_id = 8
SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 1 AND d_id = 3
SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 2 AND d_id = 1
SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 3 AND d_id = 2
SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 4 AND d_id = 3
SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 5 AND d_id = 1
SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 6 AND d_id = 2
SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 7 AND d_id = 3
SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 8 AND d_id = 1
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id < 6 AND ol_o_id >= 2 AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < 70
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 2 AND ol_d_id = 2 AND ol_o_id < 6 AND ol_o_id >= 2 AND s_w_id = 2 AND s_i_id = ol_i_id AND s_quantity < 70
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 3 AND ol_d_id = 2 AND ol_o_id < 6 AND ol_o_id >= 2 AND s_w_id = 3 AND s_i_id = ol_i_id AND s_quantity < 70
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 4 AND ol_d_id = 2 AND ol_o_id < 6 AND ol_o_id >= 2 AND s_w_id = 4 AND s_i_id = ol_i_id AND s_quantity < 70
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 5 AND ol_d_id = 2 AND ol_o_id < 6 AND ol_o_id >= 2 AND s_w_id = 5 AND s_i_id = ol_i_id AND s_quantity < 70
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 6 AND ol_d_id = 2 AND ol_o_id < 6 AND ol_o_id >= 2 AND s_w_id = 6 AND s_i_id = ol_i_id AND s_quantity < 70
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 7 AND ol_d_id = 2 AND ol_o_id < 6 AND ol_o_id >= 2 AND s_w_id = 7 AND s_i_id = ol_i_id AND s_quantity < 70
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 8 AND ol_d_id = 2 AND ol_o_id < 6 AND ol_o_id >= 2 AND s_w_id = 8 AND s_i_id = ol_i_id AND s_quantity < 70
SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 1 AND o_d_id = 3 ORDER BY o_id DESC LIMIT 2
SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 2 AND o_d_id = 3 ORDER BY o_id DESC LIMIT 2
SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 3 AND o_d_id = 3 ORDER BY o_id DESC LIMIT 2
SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 4 AND o_d_id = 3 ORDER BY o_id DESC LIMIT 2
SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 5 AND o_d_id = 3 ORDER BY o_id DESC LIMIT 2
SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 6 AND o_d_id = 3 ORDER BY o_id DESC LIMIT 2
SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 7 AND o_d_id = 3 ORDER BY o_id DESC LIMIT 2
SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 8 AND o_d_id = 3 ORDER BY o_id DESC LIMIT 2

# ---- string sharding keys: accounts is hashed by tenant; collation-equal tenants share a shard --
SELECT id, balance FROM accounts WHERE tenant = 'lodz' ORDER BY id
SELECT id, balance FROM accounts WHERE tenant = 'ŁÓDŹ' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'strasse' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'STRAẞE' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'strase' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'aether' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'ORE' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'COEUR' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'acme' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'ａｃｍｅ' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'ACME   ' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'plain' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'nobody' ORDER BY id
SELECT id FROM accounts WHERE tenant IN ('zoe', 'LODZ', 'Ore') ORDER BY id
SELECT id FROM accounts WHERE tenant = 'lodz' AND id > 10 ORDER BY id
SELECT COUNT(*), SUM(balance) FROM accounts WHERE tenant = 'Æther'
SELECT COUNT(*), SUM(balance), MIN(balance), MAX(balance), AVG(balance) FROM accounts
[fold] SELECT tenant, COUNT(*), SUM(balance) FROM accounts GROUP BY tenant ORDER BY tenant
[fold] SELECT DISTINCT tenant FROM accounts ORDER BY tenant
SELECT tenant COLLATE utf8mb4_bin AS t, COUNT(*) FROM accounts GROUP BY t ORDER BY t
SELECT id, tenant FROM accounts ORDER BY tenant COLLATE utf8mb4_bin, id
[prefix 1; fold] SELECT tenant, id FROM accounts ORDER BY tenant
[fold] SELECT a.tenant, COUNT(*) FROM accounts a JOIN accounts b ON b.tenant = a.tenant GROUP BY a.tenant ORDER BY a.tenant
[fold] SELECT tenant, COUNT(*) AS n FROM accounts GROUP BY tenant HAVING tenant = 'lodz'
[fold] SELECT tenant, COUNT(*) AS n FROM accounts GROUP BY tenant HAVING tenant <> 'acme' ORDER BY tenant

# ---- more aggregates, HAVING, empty groups
[refused 1235: HAVING compares the string column] SELECT c_last, COUNT(*) AS n FROM customer GROUP BY c_last HAVING n > 10 OR c_last = 'elan'
 ---------------------------------------------------
SELECT c_w_id, COUNT(*) FROM customer WHERE c_w_id > 100 GROUP BY c_w_id
SELECT COUNT(*) FROM customer HAVING COUNT(*) > 1000
SELECT COUNT(*) FROM customer HAVING COUNT(*) > 1
SELECT MAX(c_balance) AS m FROM customer HAVING m > 0
SELECT c_w_id, c_d_id, MAX(c_balance) FROM customer GROUP BY c_w_id, c_d_id HAVING MAX(c_balance) > 20000 ORDER BY 3 DESC, 1, 2
SELECT SUM(ol_amount) AS s FROM order_line GROUP BY ol_w_id ORDER BY s DESC LIMIT 3
SELECT COUNT(*) AS n FROM customer GROUP BY c_credit ORDER BY n
SELECT COUNT(*) FROM customer GROUP BY c_w_id HAVING c_w_id > 4
SELECT c_w_id, COUNT(*) FROM customer GROUP BY c_w_id HAVING c_w_id IS NOT NULL AND COUNT(*) > 0 ORDER BY c_w_id
[fold] SELECT c_credit, COUNT(*) FROM customer GROUP BY c_credit HAVING c_credit = 'gc'
[fold] SELECT c_last, COUNT(*) FROM customer GROUP BY c_last HAVING c_last = 'elan'
[fold] SELECT c_last, COUNT(*) FROM customer GROUP BY c_last HAVING c_last > 'm' ORDER BY c_last
[unordered] SELECT c_w_id, COUNT(*) FROM customer GROUP BY c_w_id ORDER BY NULL
SELECT c_w_id % 2 AS parity, COUNT(*), SUM(c_balance) FROM customer GROUP BY c_w_id % 2 ORDER BY parity
SELECT SUM(ol_amount * ol_quantity), AVG(ol_amount * 2), MAX(LENGTH(ol_dist_info)), COUNT(ol_delivery_d IS NULL) FROM order_line
SELECT o_w_id, SUM(o_ol_cnt), MIN(o_entry_d), MAX(o_entry_d) FROM orders GROUP BY o_w_id ORDER BY o_w_id
SELECT DATE(c_since) AS d, COUNT(*) FROM customer GROUP BY DATE(c_since) ORDER BY d LIMIT 10
SELECT MONTH(o_entry_d) AS m, COUNT(*) FROM orders GROUP BY m ORDER BY m
[fold] SELECT i.i_name, SUM(ol.ol_amount) FROM order_line ol JOIN item i ON i.i_id = ol.ol_i_id GROUP BY i.i_name ORDER BY i.i_name
SELECT i.i_id, COUNT(*) AS n FROM order_line ol JOIN item i ON i.i_id = ol.ol_i_id GROUP BY i.i_id ORDER BY n DESC, i.i_id LIMIT 5
SELECT COUNT(*) FROM orders o, order_line ol WHERE ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
SELECT COUNT(*), COUNT(d.d_id) FROM warehouse w LEFT JOIN district d ON d.d_w_id = w.w_id AND d.d_id = 3
SELECT w.w_id, d.d_id FROM warehouse w LEFT JOIN district d ON d.d_id = w.w_id WHERE w.w_id = 1
SELECT COUNT(*) FROM sbtest1 WHERE id > 0 AND id < 1000
SELECT COUNT(*) FROM sbtest1 WHERE c LIKE '1%'
SELECT GROUP_CONCAT(c_id ORDER BY c_id) FROM customer WHERE c_w_id = 3 AND c_d_id = 1
SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_balance DESC, c_id) AS rn FROM customer WHERE c_w_id = 2 AND c_d_id = 2 ORDER BY c_id
WITH t AS (SELECT c_id, c_balance FROM customer WHERE c_w_id = 4) SELECT COUNT(*), SUM(c_balance) FROM t
WITH t AS (SELECT id, k FROM sbtest1) SELECT COUNT(*), SUM(k) FROM t
WITH t AS (SELECT k, COUNT(*) AS n FROM sbtest1 GROUP BY k) SELECT MAX(n) FROM t
SELECT t.k, t.n FROM (SELECT k, COUNT(*) AS n FROM sbtest1 WHERE id = 9 GROUP BY k) AS t

# ---- LIMIT forms -----------------------------------------------------------------------------
SELECT id FROM sbtest1 ORDER BY id LIMIT 0, 5
SELECT id FROM sbtest1 ORDER BY id LIMIT 5 OFFSET 0
SELECT id FROM sbtest1 ORDER BY id DESC LIMIT 145, 18446744073709551615
SELECT id, k FROM sbtest1 ORDER BY k DESC, id LIMIT 18446744073709551615
SELECT DISTINCT k FROM sbtest1 ORDER BY k LIMIT 10, 18446744073709551615
SELECT k, COUNT(*) FROM sbtest1 GROUP BY k ORDER BY COUNT(*) DESC, k LIMIT 2, 3

# ---- key values written in other forms (converted by the server, not narrowed by the proxy) ---
SELECT id, k FROM sbtest1 WHERE id = '7'
SELECT id, k FROM sbtest1 WHERE id = '7abc'
SELECT id, k FROM sbtest1 WHERE id = ' 8'
SELECT id, k FROM sbtest1 WHERE id = 9.0
SELECT id, k FROM sbtest1 WHERE id = 9.5
SELECT id, k FROM sbtest1 WHERE id = 1e1
SELECT id, k FROM sbtest1 WHERE id = 99999999999999999999
SELECT id, k FROM sbtest1 WHERE id = -0
SELECT w_id FROM warehouse WHERE w_id = -1
SELECT w_id FROM warehouse WHERE w_id = 0
SELECT w_id FROM warehouse WHERE w_id = 4.0 OR w_id = '5'
SELECT w_id FROM warehouse WHERE w_id IN ('1', 2.0, 3e0) ORDER BY w_id

# ---- spelling: case, quoting, comments, hints -------------------------------------------------
select count(*) from customer where c_w_id in (1,2)
SELECT `c_w_id`, COUNT(*) FROM `customer` GROUP BY `c_w_id` ORDER BY `c_w_id`
/* leading comment */ SELECT COUNT(*) FROM sbtest1
SELECT /* inner */ COUNT(*) FROM sbtest1 WHERE id = 3 -- trailing comment
SELECT SQL_NO_CACHE COUNT(*) FROM sbtest2
SELECT HIGH_PRIORITY id FROM sbtest1 WHERE id = 2
SELECT id FROM sbtest1 WHERE id = 5 FOR UPDATE
SELECT id FROM sbtest1 WHERE id = 6 LOCK IN SHARE MODE
SELECT id, k FROM sbtest2 WHERE id BETWEEN 1 AND 9 ORDER BY id FOR UPDATE
SELECT UPPER(c_last), LENGTH(c_last), CHAR_LENGTH(c_last) FROM customer WHERE c_w_id = 1 AND c_d_id = 1 ORDER BY c_id

# ---- errors: the proxy must pass the server's own --------------------------------------------
SELECT * FROM CUSTOMER LIMIT 1
SELECT nosuchcolumn FROM customer
SELECT nosuchcolumn FROM customer WHERE c_w_id = 1
SELECT COUNT(*) FROM nosuchtable
SELECT c_w_id FROM customer WHERE c_w_id = 1 AND
SELECT 1/0, 5 DIV 0
INSERT INTO sbtest1 (id, k, c, pad) VALUES (1, 1, 'duplicate', 'x')
INSERT INTO sbtest1 (id, k, c, pad) VALUES (200, 'not a number', 'x', 'y')
UPDATE warehouse SET w_tax = 'x' WHERE w_id = 2
UPDATE sbtest1 SET nosuchcolumn = 1 WHERE k = 2
DELETE FROM nosuchtable WHERE id = 1
[refused 1235: no shard holds] INSERT INTO warehouse (w_id, w_name) VALUES (0, 'zero')
[refused 1235: no shard holds] INSERT INTO warehouse (w_id, w_name) VALUES (11, 'W11'), (-3, 'negative')

# ---- more types through the merge (binary rows in the prepared run), long values --------------
SELECT id, fl, yr, bits, tags FROM metrics ORDER BY id
SELECT id, fl, yr, HEX(bits), tags FROM metrics WHERE id < 40 ORDER BY yr, id
SELECT id, fl FROM metrics ORDER BY fl, id LIMIT 20
SELECT yr, COUNT(*) FROM metrics GROUP BY yr ORDER BY yr
SELECT MIN(yr), MAX(yr), MIN(fl), MAX(fl), COUNT(bits), COUNT(tags) FROM metrics
SELECT bits, COUNT(*) FROM metrics GROUP BY bits ORDER BY bits LIMIT 10
[refused 1235: ENUM/SET] SELECT tags, COUNT(*) FROM metrics GROUP BY tags
SELECT CAST(tags AS CHAR) AS t, COUNT(*) FROM metrics GROUP BY t ORDER BY t
SELECT id, REPEAT(c, 3) AS long_c FROM sbtest1 WHERE id < 30 ORDER BY long_c
SELECT k, MAX(REPEAT(pad, 5)) FROM sbtest2 GROUP BY k ORDER BY k
SELECT id, CONCAT(c, pad, c, pad, c) FROM sbtest2 ORDER BY id DESC LIMIT 12

# ---- literals that are keys in disguise ------------------------------------------------------
SELECT id, k FROM sbtest1 WHERE id = 0x10
SELECT id, k FROM sbtest1 WHERE id = X'11'
SELECT id, k FROM sbtest1 WHERE id = b'10010'
SELECT id, k FROM sbtest1 WHERE id = 020
SELECT id, k FROM sbtest1 WHERE id = TRUE
SELECT id, k FROM sbtest1 WHERE id IN (0x15, 22, '23')
SELECT w_id, w_name FROM warehouse WHERE w_id = 0x05
SELECT id FROM accounts WHERE tenant = 5 ORDER BY id
SELECT id FROM accounts WHERE tenant = '5' ORDER BY id
SELECT id FROM accounts WHERE tenant = 5.0 ORDER BY id
SELECT id FROM accounts WHERE tenant IN (5, 'lodz') ORDER BY id
SET @w = 3
SELECT w_id, w_name FROM warehouse WHERE w_id = @w
SELECT COUNT(*) FROM customer WHERE c_w_id = @w + 1

# ---- metadata every shard answers alike ------------------------------------------------------
SHOW TABLES
[noparam] SHOW COLUMNS FROM customer
DESCRIBE sbtest1
SHOW CREATE TABLE metrics
SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name
SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'accounts' ORDER BY ordinal_position

# ---- writes: multi-row inserts across shards --------------------------------------------------
INSERT INTO warehouse (w_id, w_name, w_street_1, w_city, w_state, w_zip, w_tax, w_ytd) VALUES (9, 'W9', 'x', 'Zürich', 'ZZ', '123411111', 0.1000, 0.00), (10, 'W10', 'y', 'Łódź', 'ŁÓ', '999911111', 0.0500, 10.00)
SELECT * FROM warehouse ORDER BY w_id
INSERT INTO district (d_id, d_w_id, d_name, d_tax, d_ytd, d_next_o_id) VALUES (1, 9, 'D9', 0.1, 0, 1), (1, 1, 'D1x', 0.1, 0, 1), (4, 3, 'D3-4', 0.2, 5, 2), (4, 6, 'D6-4', 0.3, 7, 3), (4, 8, 'D8-4', 0, 0, 1)
INSERT INTO district (d_id, d_w_id, d_name) VALUES (5, 2, 'dup'), (1, 4, 'duplicate key')
INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (6, 1, 1), (6, 1, 3), (6, 1, 5), (6, 1, 7), (6, 2, 8)
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (6, 1, 3, 1, 7, 3, NULL, 3, 12.50, 'xxxxxxxxxxxxxxxxxxxxxxxx'), (6, 1, 3, 2, 8, 3, NULL, 4, 1.25, 'yyyyyyyyyyyyyyyyyyyyyyyy')
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (6, 1, 3, 4, '2024-05-01 10:00:00', NULL, 2, 1)
INSERT INTO sbtest1 (id, k, c, pad) VALUES (151, 1, 'new-151', 'p'), (152, 2, 'new-152', 'p'), (153, 3, 'new-153', 'p'), (154, 4, 'new-154', 'p'), (155, 5, 'new-155', 'p'), (156, 6, 'new-156', 'p')
INSERT INTO sbtest1 (k, c, pad, id) VALUES (7, 'new-157', 'p', 157)
INSERT INTO sbtest1 (id, k, c, pad) VALUES (158, 1, 'a', 'b'), (151, 1, 'dup', 'dup')
INSERT IGNORE INTO sbtest1 (id, k, c, pad) VALUES (159, 9, 'ignored dup next', 'p'), (151, 1, 'dup', 'dup'), (160, 10, 'x', 'y')
INSERT INTO metrics (id, tag, grp, amount, ratio, qty, day, at_time, stamp, flag, raw, kind) VALUES (121, 'Neu', 'a', 1.5, 0.25, 18446744073709551615, '2024-02-29', '838:59:59', '2024-02-29 23:59:59.999', 127, X'00FF', 'blue'), (122, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (123, 'neu', 'A', -0.001, -1e3, 0, '2020-01-01', '-838:59:59', '2020-01-01 00:00:00.000', -128, X'', 'red')
SELECT id, tag, amount, ratio, qty, day, at_time, stamp, flag, raw, kind FROM metrics WHERE id > 120 ORDER BY id
INSERT INTO notes (id, author, body, created, score) VALUES (31, 'Zed', 'late', '2024-12-31', 1.5), (32, 'zed', 'later', NULL, NULL)
INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (41, 1, 'Ætherium', 9.99, 'new'), (42, 2, 'aetherium', 1.00, 'new')
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (1, 1, 2, 1, 2, '2024-01-01 00:00:00', 5.00, 'p1'), (1, 1, 7, 1, 7, '2024-01-01 00:00:00', 6.00, 'p2')

# LAST_INSERT_ID() after explicit ids is not compared: the server keeps its last generated id, the
# proxy reports the id of the OK packet (see WritesAcrossShardsIT for generated ids).
INSERT INTO sbtest2 (id, k, c, pad) VALUES (400, 1, 'explicit id', 'p')
INSERT INTO sbtest2 (id, k, c, pad) VALUES (401, 1, 'explicit ids', 'p'), (402, 1, 'on two shards', 'p'), (403, 1, 'or more', 'p')
INSERT INTO sbtest1 SET id = 501, k = 1, c = 'insert set', pad = 'p'
REPLACE INTO sbtest1 SET id = 501, k = 2, c = 'replace set', pad = 'p'
INSERT INTO sbtest1 (id, k, c, pad) VALUES (502, 1 + 1, CONCAT('con', 'cat'), UPPER('pad'))
[refused 1235: must be given as a value] INSERT INTO sbtest1 (id, k, c, pad) VALUES (NULL, 1, 'null key', 'p')
[refused 1235: must be given as a value] INSERT INTO sbtest1 (id, k, c, pad) VALUES (DEFAULT, 1, 'default key', 'p')
[refused 1235: must set its sharding key] INSERT INTO sbtest1 SET k = 1, c = 'no key', pad = 'p'

# ---- writes: ON DUPLICATE KEY UPDATE and REPLACE (routed per row) ------------------------------
INSERT INTO sbtest2 (id, k, c, pad) VALUES (1, 100, 'c1', 'p'), (151, 151, 'c151', 'p'), (64, 100, 'c64', 'p'), (152, 152, 'c152', 'p') ON DUPLICATE KEY UPDATE k = k + 1000, c = VALUES(c)
INSERT INTO sbtest2 (id, k, c, pad) VALUES (1, 5, 'again', 'p') ON DUPLICATE KEY UPDATE k = VALUES(k)
INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_ytd, s_order_cnt, s_remote_cnt, s_data) VALUES (1, 1, 5, 'd', 0, 0, 0, 's'), (1, 8, 5, 'd', 0, 0, 0, 's'), (41, 8, 7, 'd', 0, 0, 0, 'n') ON DUPLICATE KEY UPDATE s_quantity = s_quantity + VALUES(s_quantity), s_order_cnt = s_order_cnt + 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_last, c_balance) VALUES (1, 1, 1, 'Änne', 'NEU', 0), (9, 1, 4, 'Bo', 'neu', 1) ON DUPLICATE KEY UPDATE c_balance = c_balance - 1, c_last = VALUES(c_last)
REPLACE INTO sbtest1 (id, k, c, pad) VALUES (2, 20, 'replaced-2', 'r'), (161, 21, 'new-161', 'r'), (66, 22, 'replaced-66', 'r')
REPLACE INTO warehouse (w_id, w_name, w_tax, w_ytd) VALUES (9, 'W9bis', 0.2, 1), (4, 'W4bis', 0.3, 2)
REPLACE INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (42, 3, 'replaced', 2.00, 'r')
[refused 1235: would move the row] INSERT INTO sbtest1 (id, k, c, pad) VALUES (3, 1, 'x', 'y') ON DUPLICATE KEY UPDATE id = id + 1000
INSERT INTO sbtest1 VALUES (170, 1, 'x', 'y')
[refused 1235: must be given as a value] INSERT INTO sbtest1 (id, k, c, pad) VALUES (170 + 1, 1, 'x', 'y')
[refused 1235: subqueries] INSERT INTO sbtest1 (id, k, c, pad) VALUES (171, (SELECT MAX(k) FROM sbtest2), 'x', 'y')
[refused 1235: INSERT ... SELECT] INSERT INTO sbtest2 (id, k, c, pad) SELECT id + 1000, k, c, pad FROM sbtest1 WHERE id < 5

# ---- writes: UPDATE and DELETE by key, by IN list, without key --------------------------------
UPDATE warehouse SET w_ytd = w_ytd + 10.50 WHERE w_id = 5
UPDATE district SET d_ytd = d_ytd + 10.50, d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 5 AND d_id = 2
UPDATE customer SET c_balance = c_balance - 10.50, c_ytd_payment = c_ytd_payment + 10.50, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = 5 AND c_d_id = 2 AND c_id = 3
UPDATE customer SET c_balance = c_balance + 1 WHERE c_w_id IN (1, 5)
UPDATE customer SET c_data = CONCAT('x', COALESCE(c_data, '')) WHERE c_w_id = 7 AND c_d_id = 1 AND c_credit = 'BC'
UPDATE customer SET c_credit = 'BC' WHERE c_balance < -150 AND c_credit = 'GC'
UPDATE customer SET c_discount = 0.1234 WHERE c_last = 'élan'
SELECT c_w_id, c_d_id, c_id, c_credit, c_discount FROM customer WHERE c_credit = 'BC' OR c_discount = 0.1234 ORDER BY c_w_id, c_d_id, c_id
UPDATE stock SET s_quantity = 50, s_ytd = s_ytd + 3, s_order_cnt = s_order_cnt + 1 WHERE s_i_id = 7 AND s_w_id = 3
UPDATE stock SET s_remote_cnt = s_remote_cnt + 1 WHERE s_i_id = 9
UPDATE orders SET o_carrier_id = 7 WHERE o_id = 4 AND o_d_id = 1 AND o_w_id = 4
UPDATE order_line SET ol_delivery_d = '2024-06-01 00:00:00' WHERE ol_o_id = 4 AND ol_d_id = 1 AND ol_w_id = 4
UPDATE order_line SET ol_delivery_d = '2024-06-02 12:30:00' WHERE ol_delivery_d IS NULL AND ol_d_id = 3
UPDATE sbtest1 SET k = k + 1 WHERE id = 17
UPDATE sbtest1 SET c = 'updated-c' WHERE id = 18
UPDATE sbtest1 SET k = k + 1 WHERE id IN (20, 21, 22, 23, 24, 25)
UPDATE sbtest2 SET pad = 'no key' WHERE k < 3
UPDATE sbtest2 SET pad = 'matches nothing' WHERE k > 100000
SELECT ROW_COUNT()
UPDATE sbtest2 SET pad = 'counted' WHERE k BETWEEN 10 AND 14
SELECT ROW_COUNT()
UPDATE sbtest1 SET pad = 'counted' WHERE id = 8
SELECT ROW_COUNT()
UPDATE sbtest2 SET pad = 'counted twice' WHERE k BETWEEN 10 AND 14
[noparam] SELECT ROW_COUNT() * 10, ROW_COUNT() > 1, 'ROW_COUNT()'
UPDATE sbtest2 SET k = k WHERE id < 10
UPDATE metrics SET amount = amount * 2, ratio = ratio / 2 WHERE grp = 'c'
UPDATE metrics SET tag = UPPER(tag) WHERE id IN (3, 4, 5)
UPDATE notes SET score = score + 1 WHERE author = 'ann'
UPDATE item SET i_price = i_price + 1 WHERE i_id < 5
UPDATE item SET i_data = 'touched' WHERE i_id = 12
UPDATE warehouse w JOIN district d ON d.d_w_id = w.w_id SET d.d_ytd = d.d_ytd + 1 WHERE w.w_id = 6
UPDATE warehouse w JOIN district d ON d.d_w_id = w.w_id SET d.d_tax = 0.0001 WHERE d.d_id = 2
SELECT d_w_id, d_id, d_ytd, d_tax FROM district ORDER BY d_w_id, d_id
[refused 1235: would move the row] UPDATE warehouse SET w_id = 99 WHERE w_id = 9
[refused 1235: would move the row] UPDATE sbtest1 SET id = id + 10000 WHERE k = 5
[refused 1235: ORDER BY or LIMIT] UPDATE sbtest1 SET k = 0 ORDER BY id LIMIT 3
[refused 1235: ORDER BY or LIMIT] DELETE FROM sbtest2 WHERE k > 10 LIMIT 1
[refused 1235: not co-located] UPDATE sbtest1 s1 JOIN sbtest2 s2 ON s2.k = s1.k SET s1.pad = 'x'
[refused 1235: reference table] UPDATE item i JOIN stock s ON s.s_i_id = i.i_id SET i.i_price = 1 WHERE s.s_w_id = 1
[refused 1235: needs rows of other shards] DELETE FROM sbtest1 WHERE k = (SELECT MAX(k) FROM sbtest2)
UPDATE sbtest1 SET k = 1 WHERE id = 1 ORDER BY id LIMIT 1
DELETE FROM new_orders WHERE no_o_id = 4 AND no_d_id = 1 AND no_w_id = 4
DELETE FROM new_orders WHERE no_w_id IN (2, 6) AND no_d_id = 3
DELETE FROM sbtest1 WHERE id = 19
DELETE FROM sbtest1 WHERE k = 3
DELETE FROM sbtest2 WHERE id IN (7, 70, 140) OR id = 141
DELETE FROM history WHERE h_amount > 5
DELETE FROM metrics WHERE tag IS NULL
DELETE FROM notes WHERE id = 32
DELETE FROM item WHERE i_id = 41
DELETE FROM sbtest2 WHERE id = 99999
DELETE o FROM orders o JOIN new_orders n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id WHERE o.o_w_id = 8
SELECT COUNT(*) FROM orders WHERE o_w_id = 8

# ---- writes keyed by strings -----------------------------------------------------------------
UPDATE accounts SET balance = balance + 1 WHERE tenant = 'ÆTHER'
UPDATE accounts SET note = 'lodz' WHERE tenant IN ('lodz', 'zoë')
INSERT INTO accounts (tenant, id, balance, note) VALUES ('łódź', 100, 1.00, 'new'), ('STRASSE', 101, 2.00, 'new'), ('ａｃｍｅ', 102, 3.00, 'new'), ('brand new', 103, 4.00, NULL)
SELECT id, note FROM accounts WHERE tenant = 'Lodz' ORDER BY id
SELECT id FROM accounts WHERE tenant = 'Acme' ORDER BY id
INSERT INTO accounts (tenant, id, balance) VALUES ('Lodz', 100, 9.99), ('strasse', 101, 8.88) ON DUPLICATE KEY UPDATE balance = VALUES(balance)
REPLACE INTO accounts (tenant, id, balance) VALUES ('COEUR', 200, 5), ('Zoe', 201, 6), ('ZOË', 201, 7)
DELETE FROM accounts WHERE tenant = 'Ore'
DELETE FROM accounts WHERE tenant = 'strase'
DELETE FROM accounts WHERE tenant IN ('plain', 'nobody')
SELECT tenant COLLATE utf8mb4_bin AS t, id, balance FROM accounts ORDER BY t, id

# ---- transactions: single-shard and across shards ---------------------------------------------
BEGIN
UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 1
UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 1
COMMIT
BEGIN
UPDATE sbtest1 SET k = k + 100 WHERE id = 30
UPDATE sbtest1 SET k = k + 100 WHERE id = 31
UPDATE sbtest1 SET k = k + 100 WHERE id = 32
ROLLBACK
SELECT id, k FROM sbtest1 WHERE id IN (30, 31, 32) ORDER BY id
BEGIN
UPDATE customer SET c_balance = 0 WHERE c_d_id = 3 AND c_id = 8
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (8, 3, 1, 3, 1, '2024-07-01 00:00:00', 1.00, 'tx'), (8, 3, 8, 3, 8, '2024-07-01 00:00:00', 1.00, 'tx')
COMMIT
SELECT c_w_id, c_balance FROM customer WHERE c_d_id = 3 AND c_id = 8 ORDER BY c_w_id

BEGIN
UPDATE sbtest2 SET c = 'written before the failed statement' WHERE id IN (2, 3, 4, 5)
INSERT INTO sbtest2 (id, k, c, pad) VALUES (300, 1, 'tx', 'p'), (301, 2, 'tx', 'p'), (302, 3, 'tx', 'p'), (1, 4, 'duplicate in a transaction', 'p')
SELECT id, c FROM sbtest2 WHERE id IN (2, 3, 4, 5) ORDER BY id
SELECT id, k, c FROM sbtest2 WHERE id IN (1, 300, 301, 302) ORDER BY id
INSERT INTO sbtest2 (id, k, c, pad) VALUES (300, 1, 'tx', 'p'), (301, 2, 'tx', 'p')
UPDATE sbtest2 SET nosuchcolumn = 1 WHERE k < 5
UPDATE sbtest2 SET k = k + 10 WHERE id IN (300, 301, 2, 3)
COMMIT
SELECT id, k, c FROM sbtest2 WHERE id IN (1, 2, 3, 300, 301, 302) ORDER BY id
BEGIN
UPDATE sbtest1 SET k = k + 1 WHERE id IN (40, 41, 42, 43)
INSERT INTO sbtest1 (id, k, c, pad) VALUES (303, 1, 'rolled back', 'p'), (304, 1, 'rolled back', 'p')
ROLLBACK
SELECT id, k FROM sbtest1 WHERE id IN (40, 41, 42, 43, 303, 304) ORDER BY id

# ---- state at the end -------------------------------------------------------------------------
SELECT COUNT(*), SUM(c_balance), AVG(c_balance) FROM customer
SELECT c_w_id, COUNT(*), SUM(c_balance) FROM customer GROUP BY c_w_id ORDER BY c_w_id
SELECT COUNT(*), SUM(k) FROM sbtest1
SELECT COUNT(*), SUM(k) FROM sbtest2

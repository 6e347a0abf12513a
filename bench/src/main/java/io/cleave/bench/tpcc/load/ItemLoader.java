package io.cleave.bench.tpcc.load;

import io.cleave.bench.tpcc.TpccScale;
import io.cleave.bench.tpcc.data.TpccRandom;
import java.sql.Connection;
import java.sql.SQLException;

/** The 100,000 items (clause 4.3.3.1), shared by all warehouses: a reference table. */
final class ItemLoader {
    private ItemLoader() {
    }

    static long load(Connection connection, TpccRandom random) throws SQLException {
        try (MultiRowInsert insert = new MultiRowInsert(connection, "item",
            "i_id", "i_im_id", "i_name", "i_price", "i_data")) {
            for (int id = 1; id <= TpccScale.ITEMS; id++) {
                insert.add(id, random.uniform(1, 10_000), random.alphaString(14, 24),
                    random.decimal(100, 10_000, 2), random.data(26, 50));
            }
            insert.flush();
            return insert.written();
        }
    }
}

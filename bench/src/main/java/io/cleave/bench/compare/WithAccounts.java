package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.Layout;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

/** A dataset whose homes also get the clients' accounts, made through the proxy as root once it is loaded. */
public record WithAccounts(Dataset dataset, String database, List<ClientAccount> accounts) implements Dataset {

    @Override
    public Layout layout() {
        return dataset.layout();
    }

    @Override
    public void load(BenchHome home) throws Exception {
        dataset.load(home);
        try (Connection c = home.proxy("").getConnection(); Statement st = c.createStatement()) {
            for (ClientAccount a : accounts) {
                for (String sql : a.statements(database)) {
                    st.execute(sql);
                }
            }
        }
    }

    @Override
    public List<CheckResult> verify(BenchHome home) throws Exception {
        return dataset.verify(home);
    }
}

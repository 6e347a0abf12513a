package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.StmtPrepareOk;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * COM_STMT_PREPARE and COM_STMT_EXECUTE: the client gets the proxy's statement id, each execute
 * goes to the shard its bound key names, and a shard prepares the statement when an execute
 * first reaches it.
 */
class PreparedStatementFlowTest {

    private static final String UPDATE = "UPDATE t SET v = 'x' WHERE id = ?";

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void eachExecuteGoesWhereItsBoundKeyLives() {
        proxy.shard(0).answer(UPDATE, ShardReply.ok(1, 0));
        proxy.shard(1).answer(UPDATE, ShardReply.ok(1, 0));

        StmtPrepareOk ok = proxy.prepare(client, UPDATE);
        assertThat(ok.paramCount()).isEqualTo(1);

        client.send(CommandCode.STMT_EXECUTE, execute(ok.statementId(), 150));
        proxy.pump();
        ClientReply onShard1 = client.reply();
        client.send(CommandCode.STMT_EXECUTE, execute(ok.statementId(), 5));
        proxy.pump();
        ClientReply onShard0 = client.reply();

        assertThat(onShard1.ok().affectedRows()).isEqualTo(1);
        assertThat(onShard0.ok().affectedRows()).isEqualTo(1);
        // Shard 0's connection took the database at login (checking it exists).
        assertThat(proxy.shard(0).received()).containsExactly("COM_STMT_PREPARE " + UPDATE,
                "COM_STMT_EXECUTE " + UPDATE);
        assertThat(proxy.shard(1).received()).as("prepared there when the first execute came")
                .containsExactly("COM_INIT_DB app", "COM_STMT_PREPARE " + UPDATE, "COM_STMT_EXECUTE " + UPDATE);
    }

    @Test
    void statementsTheProxyRunsItselfArePreparedWithoutAShard() {
        StmtPrepareOk ok = proxy.prepare(client, "BEGIN");

        client.send(CommandCode.STMT_EXECUTE, execute(ok.statementId()));
        ClientReply begin = client.reply();

        assertThat(begin.inTransaction()).isTrue();
        assertThat(proxy.shard(0).received()).isEmpty();
        assertThat(proxy.shard(1).received()).isEmpty();
    }

    /** COM_STMT_EXECUTE of {@code id} with BIGINT parameters, types sent. */
    private static byte[] execute(long id, long... params) {
        ByteBuf b = Unpooled.buffer();
        b.writeIntLE((int) id);
        b.writeByte(0);
        b.writeIntLE(1);
        if (params.length > 0) {
            b.writeZero((params.length + 7) / 8);
            b.writeByte(1);
            for (int i = 0; i < params.length; i++) {
                b.writeShortLE(ColumnType.LONGLONG.code());
            }
            for (long p : params) {
                b.writeLongLE(p);
            }
        }
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        b.release();
        return out;
    }
}

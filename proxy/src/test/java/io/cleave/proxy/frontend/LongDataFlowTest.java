package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.StmtPrepareOk;
import io.cleave.proxy.server.ProxyConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * COM_STMT_SEND_LONG_DATA under max_allowed_packet (1K here): a parameter collects up to that much
 * and the execute replays it to the shard ahead of itself; past it, the data is dropped and every
 * execute fails with 1105 until COM_STMT_RESET, as on a server, without reaching a shard.
 */
class LongDataFlowTest {

    private static final String UPDATE = "UPDATE t SET v = ? WHERE id = 5";

    private final FakeProxy proxy = new FakeProxy(LongDataFlowTest::maxAllowedPacket1K);
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aParameterPastMaxAllowedPacketFailsExecutesUntilReset() {
        proxy.shard(0).answer(UPDATE, ShardReply.ok(1, 0));
        long id = prepare();

        longData(id, 600);
        longData(id, 600);
        client.send(CommandCode.STMT_EXECUTE, execute(id));
        proxy.pump();
        ClientReply tooLong = client.reply();
        client.send(CommandCode.STMT_EXECUTE, execute(id));
        proxy.pump();
        ClientReply stillTooLong = client.reply();

        assertThat(tooLong.error().errorCode()).isEqualTo(1105);
        assertThat(tooLong.error().message()).contains("longer than 'max_allowed_packet'");
        assertThat(stillTooLong.error().errorCode()).as("until COM_STMT_RESET").isEqualTo(1105);
        assertThat(proxy.shard(0).received()).as("nothing of it reached the shard")
                .containsExactly("COM_STMT_PREPARE " + UPDATE);

        client.send(CommandCode.STMT_RESET, statementId(id));
        proxy.pump();
        assertThat(client.reply().isOk()).isTrue();
        longData(id, 1000);
        client.send(CommandCode.STMT_EXECUTE, execute(id));
        proxy.pump();
        ClientReply updated = client.reply();

        assertThat(updated.ok().affectedRows()).as(updated.toString()).isEqualTo(1);
        assertThat(proxy.shard(0).received()).endsWith("COM_STMT_SEND_LONG_DATA 1000 bytes", "COM_STMT_EXECUTE " + UPDATE);
    }

    private long prepare() {
        StmtPrepareOk ok = proxy.prepare(client, UPDATE);
        assertThat(ok.paramCount()).isEqualTo(1);
        return ok.statementId();
    }

    /** COM_STMT_SEND_LONG_DATA of {@code bytes} bytes for parameter 0 (no answer comes). */
    private void longData(long id, int bytes) {
        byte[] body = new byte[6 + bytes];
        System.arraycopy(statementId(id), 0, body, 0, 4);
        client.send(CommandCode.STMT_SEND_LONG_DATA, body);
        proxy.pump();
        assertThat(client.hasReply()).isFalse();
    }

    /** COM_STMT_EXECUTE of {@code id} with its one VARCHAR parameter sent as long data. */
    private static byte[] execute(long id) {
        ByteBuf b = Unpooled.buffer();
        b.writeIntLE((int) id);
        b.writeByte(0);
        b.writeIntLE(1);
        b.writeByte(0);
        b.writeByte(1);
        b.writeShortLE(ColumnType.VAR_STRING.code());
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        b.release();
        return out;
    }

    private static byte[] statementId(long id) {
        return new byte[] {(byte) id, (byte) (id >>> 8), (byte) (id >>> 16), (byte) (id >>> 24)};
    }

    private static ProxyConfig maxAllowedPacket1K(ProxyConfig c) {
        return new ProxyConfig(c.listen(), c.socket(), c.threads(), c.maxBackendConnectionsPerShard(),
                c.backendAcquireTimeout(), 1024, c.tlsCertificate(), c.tlsPrivateKey(), c.xaRecoveryInterval(),
                c.deadlockCheckAfter(), c.login(), c.transport());
    }
}

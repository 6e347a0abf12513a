package io.cleave.proxy.protocol.packet;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.Hex;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.proxy.protocol.packet.server.EofPacket;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.proxy.protocol.packet.server.SessionStateChanges;
import io.cleave.proxy.protocol.packet.server.StmtPrepareOk;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Server packets decoded from bytes captured from MariaDB 11.4, and written back. */
class ServerPacketsTest {

    private static final Capabilities TRACKING = new Capabilities(Capabilities.PROTOCOL_41 | Capabilities.SESSION_TRACK);
    private static final Capabilities PLAIN = new Capabilities(Capabilities.PROTOCOL_41);

    @Test
    void okWithSessionStateChange() {
        // The OK after login: status AUTOCOMMIT | SESSION_STATE_CHANGED, with tracker data.
        String hex = "00000002400000410142433043303238334632313443433345343131463143373746373745443230353238443639"
                + "303846463045413046323539363142413730303146323530383746080106057465737431";
        OkPacket ok = OkPacket.decode(Hex.payload(hex), TRACKING);
        assertThat(ok.header()).isZero();
        assertThat(ok.affectedRows()).isZero();
        assertThat(ok.lastInsertId()).isZero();
        assertThat(ok.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT | ServerStatus.SESSION_STATE_CHANGED);
        assertThat(ok.warnings()).isZero();
        // MariaDB 11.4 puts a TLS certificate check value in the info: 0x01 and 64 hex digits.
        assertThat(ok.info()).hasSize(65);
        assertThat(ok.info()[0]).isEqualTo((byte) 1);
        assertThat(ok.sessionStateChanges()).hasSize(8);
        ByteBuf out = Unpooled.buffer();
        ok.write(out, TRACKING);
        assertThat(Hex.of(out)).isEqualTo(hex);
    }

    @Test
    void schemaChangeIsWrittenAsTheServerWritesIt() {
        // The tracker data of the captured login OK above: SESSION_TRACK_SCHEMA "test1".
        assertThat(Hex.of(Unpooled.wrappedBuffer(new SessionStateChanges().schema("test1").toBytes())))
                .isEqualTo("0106057465737431");
        byte[] both = new SessionStateChanges().schema("app").systemVariable("autocommit", "ON").toBytes();
        assertThat(Hex.of(Unpooled.wrappedBuffer(both))).isEqualTo("010403617070" + "000e0a6175746f636f6d6d6974024f4e");
        OkPacket ok = OkPacket.of(0, 0, ServerStatus.AUTOCOMMIT, 0).withSessionState(both);
        ByteBuf out = Unpooled.buffer();
        ok.write(out, TRACKING);
        OkPacket back = OkPacket.decode(out, TRACKING);
        assertThat(back.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT | ServerStatus.SESSION_STATE_CHANGED);
        assertThat(back.sessionStateChanges()).isEqualTo(both);
    }

    @Test
    void okWithInsertIdAndInfo() {
        OkPacket ok = OkPacket.withInfo(3, 300, ServerStatus.AUTOCOMMIT, 1, "Records: 3  Duplicates: 0  Warnings: 1");
        ByteBuf out = Unpooled.buffer();
        ok.write(out, PLAIN);
        OkPacket back = OkPacket.decode(out, PLAIN);
        assertThat(back.affectedRows()).isEqualTo(3);
        assertThat(back.lastInsertId()).isEqualTo(300);
        assertThat(back.warnings()).isEqualTo(1);
        assertThat(new String(back.info())).isEqualTo("Records: 3  Duplicates: 0  Warnings: 1");
        out = Unpooled.buffer();
        ok.write(out, TRACKING);
        assertThat(new String(OkPacket.decode(out, TRACKING).info())).startsWith("Records: 3");
    }

    @Test
    void errPacket() {
        ErrPacket err = ErrPacket.decode(Hex.payload(
                "ff1e04233432533232556e6b6e6f776e20636f6c756d6e20276e6f73756368636f6c2720696e202753454c45435427"));
        assertThat(err.errorCode()).isEqualTo(1054);
        assertThat(err.sqlState()).isEqualTo("42S22");
        assertThat(err.message()).isEqualTo("Unknown column 'nosuchcol' in 'SELECT'");
        ByteBuf out = Unpooled.buffer();
        err.write(out);
        assertThat(Hex.of(out)).isEqualTo(
                "ff1e04233432533232556e6b6e6f776e20636f6c756d6e20276e6f73756368636f6c2720696e202753454c45435427");
    }

    @Test
    void eofPacket() {
        EofPacket eof = EofPacket.decode(Hex.payload("fe00000200"));
        assertThat(eof.warnings()).isZero();
        assertThat(eof.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT);
        ByteBuf out = Unpooled.buffer();
        eof.write(out);
        assertThat(Hex.of(out)).isEqualTo("fe00000200");
    }

    @Test
    void columnDefinition() {
        // As captured, minus the empty extended-metadata string MariaDB adds for clients that ask for it.
        ColumnDefinition41 c = ColumnDefinition41.decode(Hex.payload(
                "03646566057465737431017401740269640269640c3f000b000000030342000000"));
        assertThat(c.schema()).isEqualTo("test1");
        assertThat(c.table()).isEqualTo("t");
        assertThat(c.orgTable()).isEqualTo("t");
        assertThat(c.name()).isEqualTo("id");
        assertThat(c.orgName()).isEqualTo("id");
        assertThat(c.collationId()).isEqualTo(63);
        assertThat(c.columnLength()).isEqualTo(11);
        assertThat(ColumnType.of(c.type())).isEqualTo(ColumnType.LONG);
        assertThat(c.flags()).isEqualTo(0x4203);
        assertThat(c.decimals()).isZero();
        ByteBuf out = Unpooled.buffer();
        c.write(out);
        assertThat(Hex.of(out)).isEqualTo("03646566057465737431017401740269640269640c3f000b000000030342000000");
    }

    @Test
    void stmtPrepareOk() {
        StmtPrepareOk ok = StmtPrepareOk.decode(Hex.payload("00 07000000 0200 0300 00 0100"));
        assertThat(ok.statementId()).isEqualTo(7);
        assertThat(ok.columnCount()).isEqualTo(2);
        assertThat(ok.paramCount()).isEqualTo(3);
        assertThat(ok.warnings()).isEqualTo(1);
        ByteBuf out = Unpooled.buffer();
        ok.write(out);
        assertThat(Hex.of(out)).isEqualTo("0007000000020003000001" + "00");
    }

    @Test
    void authSwitchRequest() {
        AuthSwitchRequest sw = AuthSwitchRequest.decode(Hex.payload(
                "fe" + "63616368696e675f736861325f70617373776f726400" + "3132333435363738393031323334353637383930" + "00"));
        assertThat(sw.pluginName()).isEqualTo("caching_sha2_password");
        assertThat(new String(sw.pluginData())).isEqualTo("12345678901234567890");
    }
}

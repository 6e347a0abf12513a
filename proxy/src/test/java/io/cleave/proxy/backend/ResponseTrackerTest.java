package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.Hex;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.ServerStatus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.cleave.proxy.backend.FrameKind.COLUMN_COUNT;
import static io.cleave.proxy.backend.FrameKind.COLUMN_DEFINITION;
import static io.cleave.proxy.backend.FrameKind.EOF;
import static io.cleave.proxy.backend.FrameKind.ERR;
import static io.cleave.proxy.backend.FrameKind.OK;
import static io.cleave.proxy.backend.FrameKind.PARAM_DEFINITION;
import static io.cleave.proxy.backend.FrameKind.PREPARE_OK;
import static io.cleave.proxy.backend.FrameKind.ROW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResponseTrackerTest {

    private static final String COLUMN_ID = "03646566057465737431017401740269640269640c3f000b000000030342000000";
    private static final String COLUMN_V = "0364656605746573743101740174017601760c21002c010000fd0000000000";

    private final ResponseTracker tracker = new ResponseTracker();

    private List<FrameKind> feed(String... payloads) {
        List<FrameKind> kinds = new ArrayList<>();
        for (String p : payloads) {
            assertThat(tracker.isComplete()).as("complete before " + p).isFalse();
            kinds.add(tracker.feed(Hex.frame(0, p)));
        }
        return kinds;
    }

    @Test
    void changeUserGoesOnThroughAuthenticationRounds() {
        tracker.start(ResponseKind.CHANGE_USER, true);
        // Auth switch to mysql_native_password with a new scramble, then the OK.
        assertThat(feed("fe6d7973716c5f6e61746976655f70617373776f726400" + "3132333435363738393031323334353637383930" + "00",
                "00000002000000")).containsExactly(FrameKind.AUTH_ROUND, OK);
        assertThat(tracker.isComplete()).isTrue();
        // caching_sha2_password's fast path: more data (3), then the OK.
        tracker.start(ResponseKind.CHANGE_USER, true);
        assertThat(feed("0103", "00000002000000")).containsExactly(FrameKind.AUTH_ROUND, OK);
        tracker.start(ResponseKind.CHANGE_USER, true);
        assertThat(feed("ff1504233238303030416363657373")).containsExactly(ERR);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.errorCode()).isEqualTo(1045);
    }

    @Test
    void textResultSetWithClassicEof() {
        // SELECT id, v FROM t WHERE id = 2, as MariaDB 11.4 answered a client without DEPRECATE_EOF.
        tracker.start(ResponseKind.RESULT, false);
        assertThat(feed("02", COLUMN_ID, COLUMN_V, "fe00000200", "01320162", "fe00000200"))
                .containsExactly(COLUMN_COUNT, COLUMN_DEFINITION, COLUMN_DEFINITION, EOF, ROW, EOF);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT);
        assertThat(tracker.isError()).isFalse();
    }

    @Test
    void textResultSetWithDeprecateEof() {
        tracker.start(ResponseKind.RESULT, true);
        assertThat(feed("02", COLUMN_ID, COLUMN_V, "01320162", "0131fb", "fe000003000000"))
                .containsExactly(COLUMN_COUNT, COLUMN_DEFINITION, COLUMN_DEFINITION, ROW, ROW, EOF);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS);
    }

    @Test
    void okWithInsertId() {
        tracker.start(ResponseKind.RESULT, true);
        assertThat(feed("00012a02000000")).containsExactly(OK);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.affectedRows()).isEqualTo(1);
        assertThat(tracker.lastInsertId()).isEqualTo(42);
    }

    @Test
    void multipleResultsFollowMoreResultsFlag() {
        tracker.start(ResponseKind.RESULT, true);
        // OK with MORE_RESULTS_EXISTS (0x0008), then a one-column result set, then the final OK.
        assertThat(feed("000000" + "0a00" + "0000", "01", COLUMN_ID, "0131", "fe0000" + "0200" + "0000"))
                .containsExactly(OK, COLUMN_COUNT, COLUMN_DEFINITION, ROW, EOF);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.resultSets()).isEqualTo(2);
    }

    @Test
    void errorEndsResponse() {
        tracker.start(ResponseKind.RESULT, false);
        assertThat(feed("ff1e04233432533232556e6b6e6f776e")).containsExactly(ERR);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.isError()).isTrue();
    }

    @Test
    void errorInTheMiddleOfRows() {
        tracker.start(ResponseKind.RESULT, true);
        assertThat(feed("01", COLUMN_ID, "0131", "ff2505234857303030")).containsExactly(COLUMN_COUNT,
                COLUMN_DEFINITION, ROW, ERR);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.isError()).isTrue();
    }

    @Test
    void prepareResponseWithClassicEof() {
        tracker.start(ResponseKind.PREPARE, false);
        assertThat(feed("00" + "01000000" + "0100" + "0200" + "00" + "0000", COLUMN_ID, COLUMN_ID, "fe00000200",
                COLUMN_V, "fe00000200"))
                .containsExactly(PREPARE_OK, PARAM_DEFINITION, PARAM_DEFINITION, EOF, COLUMN_DEFINITION, EOF);
        assertThat(tracker.isComplete()).isTrue();
    }

    @Test
    void prepareWithoutParamsOrColumnsIsOnePacket() {
        tracker.start(ResponseKind.PREPARE, true);
        assertThat(feed("00" + "02000000" + "0000" + "0000" + "00" + "0000")).containsExactly(PREPARE_OK);
        assertThat(tracker.isComplete()).isTrue();
    }

    @Test
    void binaryRowsStartWithZeroButAreRows() {
        tracker.start(ResponseKind.RESULT, true);
        assertThat(feed("01", COLUMN_ID, "000002000000", "fe000002000000")).containsExactly(COLUMN_COUNT,
                COLUMN_DEFINITION, ROW, EOF);
        assertThat(tracker.isComplete()).isTrue();
    }

    @Test
    void cursorOpenEndsAfterMetadata() {
        tracker.start(ResponseKind.RESULT, false);
        assertThat(feed("01", COLUMN_ID, "fe0000" + "4200")).containsExactly(COLUMN_COUNT, COLUMN_DEFINITION, EOF);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.statusFlags() & ServerStatus.CURSOR_EXISTS).isNotZero();
    }

    @Test
    void fetchIsRowsAndTerminator() {
        tracker.start(ResponseKind.FETCH, false);
        assertThat(feed("000001000000", "fe0000" + "8200")).containsExactly(ROW, EOF);
        assertThat(tracker.isComplete()).isTrue();
    }

    @Test
    void setOptionAnswersWithEof() {
        tracker.start(ResponseKind.SIMPLE, false);
        assertThat(feed("fe00000200")).containsExactly(EOF);
        assertThat(tracker.isComplete()).isTrue();
        assertThat(tracker.statusFlags()).isEqualTo(ServerStatus.AUTOCOMMIT);
    }

    @Test
    void fieldListEndsAtEof() {
        tracker.start(ResponseKind.FIELD_LIST, false);
        assertThat(feed(COLUMN_ID + "0131", COLUMN_V + "00", "fe00000200")).containsExactly(COLUMN_DEFINITION,
                COLUMN_DEFINITION, EOF);
        assertThat(tracker.isComplete()).isTrue();
    }

    @Test
    void rowOf16MegabytesSpansFrames() {
        tracker.start(ResponseKind.RESULT, true);
        feed("01", COLUMN_ID);
        ByteBuf big = Unpooled.buffer(4 + 0xffffff);
        big.writeMediumLE(0xffffff);
        big.writeByte(3);
        big.writeByte(0xfe); // a length-encoded string longer than 16 MB starts with 0xfe
        big.writeZero(0xffffff - 1);
        assertThat(tracker.feed(big)).isEqualTo(ROW);
        assertThat(tracker.feed(Hex.frame(4, "fe00"))).isEqualTo(FrameKind.CONTINUATION);
        assertThat(tracker.isComplete()).isFalse();
        assertThat(tracker.feed(Hex.frame(5, "fe000002000000"))).isEqualTo(EOF);
        assertThat(tracker.isComplete()).isTrue();
    }

    @Test
    void packetAfterCompletionIsAProtocolError() {
        tracker.start(ResponseKind.SIMPLE, true);
        feed("00000002000000");
        assertThatThrownBy(() -> tracker.feed(Hex.frame(2, "00000002000000")))
                .isInstanceOf(MalformedPacketException.class);
    }
}

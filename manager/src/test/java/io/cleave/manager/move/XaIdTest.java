package io.cleave.manager.move;

import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class XaIdTest {

    @Test
    void theIdOfAnXaPrepareEventMatchesTheOneItsXaCommitNames() {
        // MariaDB 10.11 and 11.4 binlog a proxy branch 'cleave-zZ-1' as XA PREPARE + XA COMMIT X'636c...',X'',1.
        XAPrepareEventData prepare = new XAPrepareEventData();
        prepare.setFormatID(1);
        prepare.setGtridLength(11);
        prepare.setBqualLength(0);
        prepare.setData("cleave-zZ-1".getBytes(StandardCharsets.US_ASCII));
        XaId id = XaId.of(prepare);
        assertThat(id).isEqualTo(new XaId(1, "636c656176652d7a5a2d31", ""));
        assertThat(XaId.parse(" X'636c656176652d7a5a2d31',X'',1")).isEqualTo(id);
        assertThat(XaId.parse(" X'636C656176652D7A5A2D31',X'',1")).as("hex digits in either case").isEqualTo(id);
        assertThat(XaId.parse(" 'cleave-zZ-1'")).as("as a client writes it").isEqualTo(id);
        assertThat(XaId.parse(" 'cleave-zZ-1', '', 1 ONE PHASE")).isEqualTo(id);
    }

    @Test
    void bqualAndFormatIdAreParts() {
        XAPrepareEventData prepare = new XAPrepareEventData();
        prepare.setFormatID(7);
        prepare.setGtridLength(2);
        prepare.setBqualLength(3);
        prepare.setData("abxyz".getBytes(StandardCharsets.US_ASCII));
        assertThat(XaId.of(prepare)).isEqualTo(XaId.parse("X'6162',X'78797a',7"));
        assertThat(XaId.of(prepare)).isNotEqualTo(XaId.parse("X'6162',X'78797a',1"));
        assertThat(XaId.parse("'it''s'")).isEqualTo(new XaId(1, "69742773", ""));
    }

    @Test
    void textThatIsNoIdParsesToNull() {
        assertThat(XaId.parse("")).isNull();
        assertThat(XaId.parse(" X'zz',X'',1")).isNull();
        assertThat(XaId.parse(" X'61',")).isNull();
        assertThat(XaId.parse(" 'unterminated")).isNull();
    }
}

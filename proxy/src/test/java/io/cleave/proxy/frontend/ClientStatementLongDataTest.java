package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.PreparedSql;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ClientStatementLongDataTest {

    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    private static ClientStatement statement() {
        ClientStatement s = new ClientStatement(1, new PreparedSql("INSERT INTO t VALUES (?, ?)".getBytes(
                StandardCharsets.UTF_8)), null);
        s.prepared(2, 0);
        return s;
    }

    @Test
    void chunksAreCopiedSoTheReadBufferIsNotKeptAlive() {
        ClientStatement s = statement();
        ByteBuf readBuffer = Unpooled.buffer(64 * 1024).writeZero(64 * 1024);
        ByteBuf chunk = readBuffer.retainedSlice(100, 10);
        s.appendLongData(ALLOC, 0, chunk, 1000);
        // The slice's hold on the read buffer is given back at once.
        assertThat(readBuffer.refCnt()).isEqualTo(1);
        assertThat(s.longData(0).readableBytes()).isEqualTo(10);
        assertThat(s.longDataFlags()).containsExactly(true, false);
        s.clearLongData();
        readBuffer.release();
    }

    @Test
    void aParameterPastTheLimitLosesItsDataAndFailsExecutesUntilReset() {
        ClientStatement s = statement();
        s.appendLongData(ALLOC, 1, Unpooled.buffer().writeZero(600), 1000);
        s.appendLongData(ALLOC, 0, Unpooled.buffer().writeZero(400), 1000);
        ByteBuf over = Unpooled.buffer().writeZero(401);
        s.appendLongData(ALLOC, 1, over, 1000);
        assertThat(over.refCnt()).isZero();
        assertThat(s.longDataFlags()).isNull();
        assertThat(s.longDataTooLong()).isTrue();
        // An execute consumes nothing of the error; later chunks are dropped.
        s.clearLongData();
        ByteBuf later = Unpooled.buffer().writeZero(5);
        s.appendLongData(ALLOC, 0, later, 1000);
        assertThat(later.refCnt()).isZero();
        assertThat(s.longDataFlags()).isNull();
        assertThat(s.longDataTooLong()).isTrue();
        s.reset();
        assertThat(s.longDataTooLong()).isFalse();
        s.appendLongData(ALLOC, 0, Unpooled.buffer().writeZero(1000), 1000);
        assertThat(s.longData(0).readableBytes()).isEqualTo(1000);
        s.clearLongData();
    }
}

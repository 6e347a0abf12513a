package io.cleave.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FramingTest {

    @Test
    void decoderEmitsWholeFramesAcrossReads() {
        EmbeddedChannel ch = new EmbeddedChannel(new PacketFrameDecoder());
        ByteBuf two = Unpooled.buffer();
        two.writeBytes(Hex.frame(0, "0373656c6563742031"));
        two.writeBytes(Hex.frame(0, "0e"));
        ch.writeInbound(two.readRetainedSlice(6));
        assertThat((Object) ch.readInbound()).isNull();
        ch.writeInbound(two.readRetainedSlice(two.readableBytes()));
        ByteBuf first = ch.readInbound();
        assertThat(Frames.payloadLength(first)).isEqualTo(9);
        assertThat(Frames.firstByte(first)).isEqualTo(3);
        ByteBuf second = ch.readInbound();
        assertThat(Frames.payloadLength(second)).isEqualTo(1);
        assertThat(Frames.firstByte(second)).isEqualTo(0x0e);
        first.release();
        second.release();
        two.release();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aFrameAboveTheCapIsNotWaitedForAndTheRestIsDropped() {
        PacketFrameDecoder decoder = new PacketFrameDecoder();
        decoder.maxPayload(1024);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(Hex.frame(1, "0a0b"));
        ByteBuf small = ch.readInbound();
        assertThat(Frames.payloadLength(small)).isEqualTo(2);
        small.release();
        // "GET / HTTP/1.1" read as a header announces 5.5 MB: only its 4 header bytes are needed.
        ch.writeInbound(Unpooled.copiedBuffer("GET ", java.nio.charset.StandardCharsets.US_ASCII));
        PacketFrameDecoder.Oversized oversized = ch.readInbound();
        assertThat(oversized.payloadLength()).isEqualTo(0x544547);
        assertThat(oversized.sequence()).isEqualTo(' ');
        assertThat(oversized.limit()).isEqualTo(1024);
        ch.writeInbound(Unpooled.copiedBuffer("/ HTTP/1.1\r\n\r\n", java.nio.charset.StandardCharsets.US_ASCII));
        ch.writeInbound(Hex.frame(0, "0e"));
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void largePayloadIsSplitAndJoined() {
        int size = Frames.MAX_PAYLOAD * 2 + 10;
        ByteBuf buf = Frames.begin(ByteBufAllocator.DEFAULT, size);
        for (int i = 0; i < size; i++) {
            buf.writeByte(i);
        }
        ByteBuf frames = Frames.finish(buf, 5);
        assertThat(frames.readableBytes()).isEqualTo(size + 3 * Frames.HEADER_SIZE);
        PacketAssembler assembler = new PacketAssembler(Long.MAX_VALUE);
        ByteBuf whole = null;
        int expectedSeq = 5;
        while (frames.isReadable()) {
            int length = frames.getUnsignedMediumLE(frames.readerIndex());
            ByteBuf frame = frames.readRetainedSlice(Frames.HEADER_SIZE + length);
            assertThat(Frames.sequence(frame)).isEqualTo(expectedSeq++);
            whole = assembler.add(ByteBufAllocator.DEFAULT, frame);
        }
        frames.release();
        assertThat(whole).isNotNull();
        assertThat(whole.readableBytes()).isEqualTo(size);
        for (int i = 0; i < size; i += 4099) {
            assertThat(whole.getByte(i)).isEqualTo((byte) i);
        }
        assertThat(assembler.lastSequence()).isEqualTo(7);
        whole.release();
    }

    @Test
    void exactMultipleOfMaxPayloadEndsWithEmptyFrame() {
        ByteBuf buf = Frames.begin(ByteBufAllocator.DEFAULT, Frames.MAX_PAYLOAD);
        buf.writeZero(Frames.MAX_PAYLOAD);
        ByteBuf frames = Frames.finish(buf, 0);
        assertThat(Frames.frameCount(Frames.MAX_PAYLOAD)).isEqualTo(2);
        assertThat(frames.readableBytes()).isEqualTo(Frames.MAX_PAYLOAD + 2 * Frames.HEADER_SIZE);
        assertThat(frames.getUnsignedMediumLE(Frames.HEADER_SIZE + Frames.MAX_PAYLOAD)).isZero();
        frames.release();
    }

    @Test
    void assemblerRejectsOutOfOrderContinuation() {
        PacketAssembler assembler = new PacketAssembler(Long.MAX_VALUE);
        ByteBuf first = Unpooled.buffer();
        first.writeMediumLE(Frames.MAX_PAYLOAD);
        first.writeByte(0);
        first.writeZero(Frames.MAX_PAYLOAD);
        assertThat(assembler.add(ByteBufAllocator.DEFAULT, first)).isNull();
        assertThatThrownBy(() -> assembler.add(ByteBufAllocator.DEFAULT, Hex.frame(7, "00")))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("sequence");
    }

    @Test
    void assemblerEnforcesMaxAllowedPacket() {
        PacketAssembler assembler = new PacketAssembler(1000);
        ByteBuf first = Unpooled.buffer();
        first.writeMediumLE(Frames.MAX_PAYLOAD);
        first.writeByte(0);
        first.writeZero(Frames.MAX_PAYLOAD);
        assertThatThrownBy(() -> assembler.add(ByteBufAllocator.DEFAULT, first))
                .isInstanceOf(PacketTooLargeException.class).hasMessageContaining("max_allowed_packet");
    }

    @Test
    void lenencIntegersRoundTrip() {
        long[] values = {0, 250, 251, 65535, 65536, 0xffffff, 0x1000000, Long.MAX_VALUE};
        for (long v : values) {
            ByteBuf buf = Unpooled.buffer();
            Wire.writeLenencInt(buf, v);
            assertThat(buf.readableBytes()).isEqualTo(Wire.lenencIntSize(v));
            assertThat(Wire.readLenencInt(buf)).isEqualTo(v);
        }
    }

    @Test
    void lenencStringOverrunIsMalformed() {
        assertThatThrownBy(() -> Wire.readLenencBytes(Hex.payload("0561")))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("overruns");
    }
}

package io.cleave.proxy.merge;

import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * Writes a text-protocol row as a binary-protocol row (what COM_STMT_EXECUTE clients expect):
 * numbers in their fixed-size binary form, temporals as length-prefixed structs, everything else
 * as length-encoded bytes.
 */
public final class BinaryRowEncoder {

    private BinaryRowEncoder() {
    }

    public static void write(ByteBuf out, TextRow row, List<ResultColumn> columns, int visible) {
        out.writeByte(0);
        int bitmapAt = out.writerIndex();
        int bitmapLength = (visible + 7 + 2) / 8;
        out.writeZero(bitmapLength);
        for (int c = 0; c < visible; c++) {
            if (row.isNull(c)) {
                int bit = c + 2;
                out.setByte(bitmapAt + bit / 8, out.getByte(bitmapAt + bit / 8) | (1 << (bit % 8)));
                continue;
            }
            writeValue(out, columns.get(c), row, c);
        }
    }

    private static void writeValue(ByteBuf out, ResultColumn column, TextRow row, int c) {
        ColumnType type = column.type();
        switch (type) {
            case TINY:
                out.writeByte((int) parseInteger(column, row.string(c)));
                return;
            case SHORT:
            case YEAR:
                out.writeShortLE((int) parseInteger(column, row.string(c)));
                return;
            case LONG:
            case INT24:
                out.writeIntLE((int) parseInteger(column, row.string(c)));
                return;
            case LONGLONG:
                out.writeLongLE(parseInteger(column, row.string(c)));
                return;
            case FLOAT:
                out.writeFloatLE(Float.parseFloat(row.string(c)));
                return;
            case DOUBLE:
                out.writeDoubleLE(Double.parseDouble(row.string(c)));
                return;
            case DATE:
            case NEWDATE:
            case DATETIME:
            case TIMESTAMP:
            case DATETIME2:
            case TIMESTAMP2:
                writeDateTime(out, row.string(c));
                return;
            case TIME:
            case TIME2:
                writeTime(out, row.string(c));
                return;
            default:
                Wire.writeLenencInt(out, row.length(c));
                out.writeBytes(row.data(), row.start(c), row.length(c));
        }
    }

    private static long parseInteger(ResultColumn column, String text) {
        return column.unsigned() ? Long.parseUnsignedLong(text) : Long.parseLong(text);
    }

    /** "YYYY-MM-DD[ HH:MM:SS[.ffffff]]" as length 0, 4, 7 or 11 plus fields. */
    static void writeDateTime(ByteBuf out, String text) {
        int year = Integer.parseInt(text.substring(0, 4));
        int month = Integer.parseInt(text.substring(5, 7));
        int day = Integer.parseInt(text.substring(8, 10));
        int hour = 0;
        int minute = 0;
        int second = 0;
        int micros = 0;
        if (text.length() >= 19) {
            hour = Integer.parseInt(text.substring(11, 13));
            minute = Integer.parseInt(text.substring(14, 16));
            second = Integer.parseInt(text.substring(17, 19));
            if (text.length() > 20) {
                micros = Integer.parseInt((text.substring(20) + "000000").substring(0, 6));
            }
        }
        if (micros != 0) {
            out.writeByte(11);
        } else if (hour != 0 || minute != 0 || second != 0) {
            out.writeByte(7);
        } else if (year != 0 || month != 0 || day != 0) {
            out.writeByte(4);
        } else {
            out.writeByte(0);
            return;
        }
        out.writeShortLE(year);
        out.writeByte(month);
        out.writeByte(day);
        if (hour == 0 && minute == 0 && second == 0 && micros == 0) {
            return;
        }
        out.writeByte(hour);
        out.writeByte(minute);
        out.writeByte(second);
        if (micros != 0) {
            out.writeIntLE(micros);
        }
    }

    /** "[-]H+:MM:SS[.ffffff]" as length 0, 8 or 12 plus sign, days, hours, minutes, seconds, micros. */
    static void writeTime(ByteBuf out, String text) {
        long total = ValueOrder.timeMicros(text);
        boolean negative = total < 0;
        long abs = Math.abs(total);
        int micros = (int) (abs % 1_000_000);
        long secondsTotal = abs / 1_000_000;
        int second = (int) (secondsTotal % 60);
        int minute = (int) (secondsTotal / 60 % 60);
        long hoursTotal = secondsTotal / 3600;
        int days = (int) (hoursTotal / 24);
        int hour = (int) (hoursTotal % 24);
        if (abs == 0) {
            out.writeByte(0);
            return;
        }
        out.writeByte(micros != 0 ? 12 : 8);
        out.writeByte(negative ? 1 : 0);
        out.writeIntLE(days);
        out.writeByte(hour);
        out.writeByte(minute);
        out.writeByte(second);
        if (micros != 0) {
            out.writeIntLE(micros);
        }
    }
}

package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.BinaryRowEncoder;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;

import java.util.List;

/** Writes a result set the proxy built itself (merged rows, local answers) to a client. */
final class ResultWriter {

    private ResultWriter() {
    }

    static void write(ClientOutput out, List<ResultColumn> columns, List<TextRow> rows, boolean binary, int status,
                      int warnings) {
        int visible = columns.size();
        out.packet(9, b -> Wire.writeLenencInt(b, visible));
        for (ResultColumn c : columns) {
            if (c.raw() != null) {
                out.packet(c.raw().length, b -> b.writeBytes(c.raw()));
            } else {
                out.packet(64, b -> c.definition().write(b));
            }
        }
        out.endOfColumns(status);
        for (TextRow row : rows) {
            if (binary) {
                out.packet(row.data().length + 16, b -> BinaryRowEncoder.write(b, row, columns, visible));
            } else {
                out.packet(row.data().length, b -> row.writeText(b, visible));
            }
        }
        out.endOfRows(status, warnings);
    }

    /** A one-column definition for results the proxy answers itself (e.g. LAST_INSERT_ID()). */
    static ResultColumn column(String name, int type, int flags, long length) {
        return new ResultColumn(new ColumnDefinition41("", "", "", name, "", 63, length, type, flags, 0), null);
    }
}

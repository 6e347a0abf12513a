package io.cleave.proxy.backend;

/** A statement prepared on one backend connection. */
public final class BackendStatement {

    private final long id;
    private final int paramCount;
    private final int columnCount;
    /** Parameter types last sent to this statement; an execute must send types when they differ. */
    private short[] boundTypes;

    public BackendStatement(long id, int paramCount, int columnCount) {
        this.id = id;
        this.paramCount = paramCount;
        this.columnCount = columnCount;
    }

    public long id() {
        return id;
    }

    public int paramCount() {
        return paramCount;
    }

    public int columnCount() {
        return columnCount;
    }

    public short[] boundTypes() {
        return boundTypes;
    }

    public void boundTypes(short[] types) {
        this.boundTypes = types;
    }
}

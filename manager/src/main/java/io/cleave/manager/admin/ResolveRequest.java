package io.cleave.manager.admin;

/** The body of {@code POST /v1/xa/commit} and {@code /v1/xa/rollback}. */
public record ResolveRequest(String xid, boolean force) {
}

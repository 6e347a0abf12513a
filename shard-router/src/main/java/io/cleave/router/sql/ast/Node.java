package io.cleave.router.sql.ast;

/** Anything the parser produces: it knows which tokens it came from. */
public interface Node {

    Span span();
}

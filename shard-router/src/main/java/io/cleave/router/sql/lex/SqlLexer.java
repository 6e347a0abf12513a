package io.cleave.router.sql.lex;

/**
 * Splits a statement's bytes into tokens, MySQL's way, without decoding them to a String.
 *
 * <p>The client's character set is assumed ASCII-compatible with no multibyte sequence that
 * contains an ASCII byte (utf8mb4, utf8mb3, latin1, ascii, binary): every syntax character is a
 * single byte and bytes from 0x80 up only appear inside identifiers, strings and comments. For a
 * character set where that does not hold ({@link SqlMode#asciiOnly()}), a statement with any byte
 * from 0x80 up is one {@link LexError#UNSAFE_CHARSET} error token.
 *
 * <p>Comments produce no tokens, except that the content of a version comment
 * ({@code /*!50100 ... *}{@code /}, {@code /*! ... *}{@code /}, MariaDB's {@code /*M! ... *}{@code /})
 * is lexed as SQL when the shards' server runs it ({@link VersionComments}), and an optimizer hint right after
 * SELECT/INSERT/REPLACE/UPDATE/DELETE is one {@link TokenType#HINT} token. An unterminated
 * string, quoted identifier or comment ends the stream with one {@link TokenType#ERROR} token.
 *
 * <p>Instances are immutable and thread-safe; the output goes into a caller-owned {@link TokenBuffer}.
 */
public final class SqlLexer {

    private static final byte[] IDENT = new byte[256];

    static {
        for (int c = 'a'; c <= 'z'; c++) {
            IDENT[c] = 1;
            IDENT[c - 32] = 1;
        }
        for (int c = '0'; c <= '9'; c++) {
            IDENT[c] = 1;
        }
        IDENT['_'] = 1;
        IDENT['$'] = 1;
        for (int c = 0x80; c < 256; c++) {
            IDENT[c] = 1;
        }
    }

    private final boolean ansiQuotes;
    private final boolean backslashEscapes;
    private final boolean asciiOnly;
    private final VersionComments versions;

    public SqlLexer() {
        this(SqlMode.DEFAULT);
    }

    public SqlLexer(SqlMode mode) {
        this(mode, VersionComments.DEFAULT);
    }

    public SqlLexer(SqlMode mode, VersionComments versions) {
        this.ansiQuotes = mode.ansiQuotes();
        this.backslashEscapes = !mode.noBackslashEscapes();
        this.asciiOnly = mode.asciiOnly();
        this.versions = versions;
    }

    public VersionComments versions() {
        return versions;
    }

    /** Lexes all of {@code sql}. */
    public void lex(byte[] sql, TokenBuffer out) {
        lex(sql, 0, sql.length, out);
    }

    /** Lexes {@code sql[offset, offset + length)} into {@code out}, replacing what it held. */
    public void lex(byte[] sql, int offset, int length, TokenBuffer out) {
        out.reset(sql, offset, length);
        final int end = offset + length;
        int pos = offset;
        if (asciiOnly) {
            for (int i = offset; i < end; i++) {
                if (sql[i] < 0) {
                    out.add(TokenType.ERROR, offset, end, LexError.UNSAFE_CHARSET.ordinal(), 0);
                    return;
                }
            }
        }
        boolean inVersionComment = false;
        while (pos < end) {
            int c = sql[pos] & 0xFF;
            switch (c) {
                case ' ', '\t', '\n', '\r', '\f', 0x0B -> pos++;
                case '#' -> pos = lineEnd(sql, pos, end);
                case '-' -> {
                    if (pos + 1 < end && sql[pos + 1] == '-' && (pos + 2 >= end || isSpaceOrControl(sql[pos + 2]))) {
                        pos = lineEnd(sql, pos, end);
                    } else if (pos + 1 < end && sql[pos + 1] == '>') {
                        if (pos + 2 < end && sql[pos + 2] == '>') {
                            out.add(TokenType.DOUBLE_ARROW, pos, pos + 3, -1, 0);
                            pos += 3;
                        } else {
                            out.add(TokenType.ARROW, pos, pos + 2, -1, 0);
                            pos += 2;
                        }
                    } else {
                        out.add(TokenType.MINUS, pos, pos + 1, -1, 0);
                        pos++;
                    }
                }
                case '/' -> {
                    if (pos + 1 < end && sql[pos + 1] == '*') {
                        int body = isVersionComment(sql, pos, end) ? runningVersionCommentBody(sql, pos, end) : -1;
                        if (body >= 0) {
                            inVersionComment = true;
                            pos = body;
                        } else {
                            pos = comment(sql, pos, end, out);
                            if (pos < 0) {
                                return;
                            }
                        }
                    } else {
                        out.add(TokenType.SLASH, pos, pos + 1, -1, 0);
                        pos++;
                    }
                }
                case '*' -> {
                    if (inVersionComment && pos + 1 < end && sql[pos + 1] == '/') {
                        inVersionComment = false;
                        pos += 2;
                    } else {
                        out.add(TokenType.STAR, pos, pos + 1, -1, 0);
                        pos++;
                    }
                }
                case '\'' -> {
                    pos = string(sql, pos, end, pos, 0, out);
                    if (pos < 0) {
                        return;
                    }
                }
                case '"' -> {
                    pos = ansiQuotes ? quotedIdentifier(sql, pos, end, out) : string(sql, pos, end, pos, 0, out);
                    if (pos < 0) {
                        return;
                    }
                }
                case '`' -> {
                    pos = quotedIdentifier(sql, pos, end, out);
                    if (pos < 0) {
                        return;
                    }
                }
                case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> pos = number(sql, pos, end, out);
                case '.' -> {
                    if (pos + 1 < end && isDigit(sql[pos + 1]) && !followsIdentifier(out, pos)) {
                        pos = number(sql, pos, end, out);
                    } else {
                        out.add(TokenType.DOT, pos, pos + 1, -1, 0);
                        pos++;
                    }
                }
                case '?' -> {
                    out.add(TokenType.PLACEHOLDER, pos, pos + 1, -1, 0);
                    pos++;
                }
                case '@' -> {
                    pos = variable(sql, pos, end, out);
                    if (pos < 0) {
                        return;
                    }
                }
                case '<' -> {
                    if (pos + 2 < end && sql[pos + 1] == '=' && sql[pos + 2] == '>') {
                        out.add(TokenType.NULL_SAFE_EQ, pos, pos + 3, -1, 0);
                        pos += 3;
                    } else if (pos + 1 < end && sql[pos + 1] == '=') {
                        pos = op2(TokenType.LE, pos, out);
                    } else if (pos + 1 < end && sql[pos + 1] == '>') {
                        pos = op2(TokenType.NE, pos, out);
                    } else if (pos + 1 < end && sql[pos + 1] == '<') {
                        pos = op2(TokenType.SHIFT_LEFT, pos, out);
                    } else {
                        pos = op1(TokenType.LT, pos, out);
                    }
                }
                case '>' -> {
                    if (pos + 1 < end && sql[pos + 1] == '=') {
                        pos = op2(TokenType.GE, pos, out);
                    } else if (pos + 1 < end && sql[pos + 1] == '>') {
                        pos = op2(TokenType.SHIFT_RIGHT, pos, out);
                    } else {
                        pos = op1(TokenType.GT, pos, out);
                    }
                }
                case '!' -> pos = pos + 1 < end && sql[pos + 1] == '=' ? op2(TokenType.NE, pos, out) : op1(TokenType.BANG, pos, out);
                case ':' -> pos = pos + 1 < end && sql[pos + 1] == '=' ? op2(TokenType.ASSIGN, pos, out) : op1(TokenType.COLON, pos, out);
                case '|' -> pos = pos + 1 < end && sql[pos + 1] == '|' ? op2(TokenType.PIPE_PIPE, pos, out) : op1(TokenType.PIPE, pos, out);
                case '&' -> pos = pos + 1 < end && sql[pos + 1] == '&' ? op2(TokenType.AMP_AMP, pos, out) : op1(TokenType.AMP, pos, out);
                case '=' -> pos = op1(TokenType.EQ, pos, out);
                case '+' -> pos = op1(TokenType.PLUS, pos, out);
                case '%' -> pos = op1(TokenType.PERCENT, pos, out);
                case '^' -> pos = op1(TokenType.CARET, pos, out);
                case '~' -> pos = op1(TokenType.TILDE, pos, out);
                case '(' -> pos = op1(TokenType.LPAREN, pos, out);
                case ')' -> pos = op1(TokenType.RPAREN, pos, out);
                case ',' -> pos = op1(TokenType.COMMA, pos, out);
                case ';' -> {
                    out.add(TokenType.SEMICOLON, pos, pos + 1, -1, inVersionComment ? TokenBuffer.FLAG_IN_VERSION_COMMENT : 0);
                    pos++;
                }
                case '{' -> pos = op1(TokenType.LBRACE, pos, out);
                case '}' -> pos = op1(TokenType.RBRACE, pos, out);
                default -> {
                    if (IDENT[c] != 0) {
                        pos = word(sql, pos, end, out);
                        if (pos < 0) {
                            return;
                        }
                    } else {
                        pos = op1(TokenType.OTHER, pos, out);
                    }
                }
            }
        }
        if (inVersionComment) {
            // MySQL rejects a version comment that never closes; the tokens before stay usable.
            out.add(TokenType.ERROR, end, end, LexError.UNTERMINATED_COMMENT.ordinal(), 0);
            return;
        }
        out.dropTrailingSemicolons();
    }

    private static int op1(TokenType type, int pos, TokenBuffer out) {
        out.add(type, pos, pos + 1, -1, 0);
        return pos + 1;
    }

    private static int op2(TokenType type, int pos, TokenBuffer out) {
        out.add(type, pos, pos + 2, -1, 0);
        return pos + 2;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isIdent(byte b) {
        return IDENT[b & 0xFF] != 0;
    }

    private static boolean isSpaceOrControl(byte b) {
        int c = b & 0xFF;
        return c <= ' ' || c == 0x7F;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0B;
    }

    private static int lineEnd(byte[] sql, int pos, int end) {
        while (pos < end && sql[pos] != '\n') {
            pos++;
        }
        return pos;
    }

    /** Skips an ordinary comment or lexes a hint at {@code pos}; returns where lexing continues, -1 on error. */
    private static int comment(byte[] sql, int pos, int end, TokenBuffer out) {
        int p = pos + 2;
        int close = commentClose(sql, p, end);
        if (close < 0) {
            out.add(TokenType.ERROR, pos, end, LexError.UNTERMINATED_COMMENT.ordinal(), 0);
            return -1;
        }
        if (p < end && sql[p] == '+' && followsHintKeyword(out)) {
            out.add(TokenType.HINT, pos, close, -1, 0);
        }
        return close;
    }

    /** {@code /*!} or MariaDB's {@code /*M!} at {@code pos}. */
    private static boolean isVersionComment(byte[] sql, int pos, int end) {
        int p = pos + 2;
        return (p < end && sql[p] == '!') || (p + 1 < end && sql[p] == 'M' && sql[p + 1] == '!');
    }

    /**
     * Where the SQL inside a version comment starts (past the marker and its five or six version
     * digits), or -1 when the server skips this comment as a comment.
     */
    private int runningVersionCommentBody(byte[] sql, int pos, int end) {
        int p = pos + 2;
        boolean mariaDbMarker = sql[p] == 'M';
        p += mariaDbMarker ? 2 : 1;
        int digits = 0;
        while (p + digits < end && digits < 6 && isDigit(sql[p + digits])) {
            digits++;
        }
        long version = -1;
        if (digits >= 5) {
            version = 0;
            for (int i = 0; i < digits; i++) {
                version = version * 10 + (sql[p + i] - '0');
            }
            p += digits;
        }
        return versions.runs(mariaDbMarker, version) ? p : -1;
    }

    private static int commentClose(byte[] sql, int p, int end) {
        for (int i = p; i + 1 < end; i++) {
            if (sql[i] == '*' && sql[i + 1] == '/') {
                return i + 2;
            }
        }
        return -1;
    }

    private static boolean followsHintKeyword(TokenBuffer out) {
        Keyword k = out.keyword(out.size() - 1);
        return k == Keyword.SELECT || k == Keyword.INSERT || k == Keyword.REPLACE || k == Keyword.UPDATE
                || k == Keyword.DELETE;
    }

    /**
     * A quoted string whose body starts at {@code quotePos}; the token starts at {@code tokenStart}
     * (earlier when there is an introducer or N prefix). Returns the position after it, or -1.
     */
    private int string(byte[] sql, int tokenStart, int end, int quotePos, int flags, TokenBuffer out) {
        byte quote = sql[quotePos];
        if (!backslashEscapes) {
            flags |= TokenBuffer.FLAG_NO_BACKSLASH_ESCAPES;
        }
        int p = quotePos + 1;
        while (p < end) {
            byte b = sql[p];
            if (b == quote) {
                if (p + 1 < end && sql[p + 1] == quote) {
                    flags |= TokenBuffer.FLAG_ESCAPES;
                    p += 2;
                    continue;
                }
                if (quote == '"') {
                    flags |= TokenBuffer.FLAG_DOUBLE_QUOTED;
                }
                out.add(TokenType.STRING, tokenStart, p + 1, -1, flags | ((quotePos - tokenStart) << 16));
                return p + 1;
            }
            if (b == '\\' && backslashEscapes) {
                flags |= TokenBuffer.FLAG_ESCAPES;
                p += 2;
                continue;
            }
            p++;
        }
        out.add(TokenType.ERROR, tokenStart, end, LexError.UNTERMINATED_STRING.ordinal(), 0);
        return -1;
    }

    private static int quotedIdentifier(byte[] sql, int pos, int end, TokenBuffer out) {
        byte quote = sql[pos];
        int p = pos + 1;
        while (p < end) {
            if (sql[p] == quote) {
                if (p + 1 < end && sql[p + 1] == quote) {
                    p += 2;
                    continue;
                }
                out.add(TokenType.QUOTED_IDENTIFIER, pos, p + 1, -1, 0);
                return p + 1;
            }
            p++;
        }
        out.add(TokenType.ERROR, pos, end, LexError.UNTERMINATED_IDENTIFIER.ordinal(), 0);
        return -1;
    }

    /** A token starting with a digit, or with '.' followed by a digit. */
    private static int number(byte[] sql, int pos, int end, TokenBuffer out) {
        // 0x and 0b are case-sensitive in MySQL: 0X1 is an identifier.
        if (sql[pos] == '0' && pos + 1 < end && (sql[pos + 1] == 'x' || sql[pos + 1] == 'b')) {
            boolean hex = sql[pos + 1] == 'x';
            int p = pos + 2;
            while (p < end && (hex ? hexDigit(sql[p]) >= 0 : (sql[p] == '0' || sql[p] == '1'))) {
                p++;
            }
            if (p > pos + 2 && (p >= end || !isIdent(sql[p]))) {
                out.add(hex ? TokenType.HEX : TokenType.BIT, pos, p, -1, TokenBuffer.FLAG_PREFIX_FORM);
                return p;
            }
            return identifierFrom(sql, pos, end, out);
        }
        if (followsIdentifierDot(out, pos)) {
            // db.1table: after "ident." MySQL reads an identifier, even one that starts with a digit.
            return identifierFrom(sql, pos, end, out);
        }
        int p = pos;
        while (p < end && isDigit(sql[p])) {
            p++;
        }
        TokenType type = TokenType.INTEGER;
        if (p < end && sql[p] == '.') {
            type = TokenType.DECIMAL;
            p++;
            while (p < end && isDigit(sql[p])) {
                p++;
            }
        }
        if (p < end && (sql[p] == 'e' || sql[p] == 'E')) {
            int q = p + 1;
            if (q < end && (sql[q] == '+' || sql[q] == '-')) {
                q++;
            }
            if (q < end && isDigit(sql[q])) {
                while (q < end && isDigit(sql[q])) {
                    q++;
                }
                type = TokenType.FLOAT;
                p = q;
            }
        }
        if (type == TokenType.INTEGER && p < end && isIdent(sql[p])) {
            // 123abc and 1e are identifiers in MySQL.
            return identifierFrom(sql, pos, end, out);
        }
        out.add(type, pos, p, -1, 0);
        return p;
    }

    private static int identifierFrom(byte[] sql, int pos, int end, TokenBuffer out) {
        int p = pos;
        while (p < end && isIdent(sql[p])) {
            p++;
        }
        out.add(TokenType.IDENTIFIER, pos, p, -1, 0);
        return p;
    }

    /** True if the last token is a DOT at {@code pos - 1} that directly follows an identifier. */
    private static boolean followsIdentifierDot(TokenBuffer out, int pos) {
        int n = out.size();
        if (n < 2 || out.type(n - 1) != TokenType.DOT || out.end(n - 1) != pos) {
            return false;
        }
        TokenType before = out.type(n - 2);
        return (before == TokenType.IDENTIFIER || before == TokenType.QUOTED_IDENTIFIER)
                && out.end(n - 2) == out.start(n - 1);
    }

    /** True if the last token is an identifier ending exactly at {@code pos} (so '.' is a qualifier dot). */
    private static boolean followsIdentifier(TokenBuffer out, int pos) {
        int n = out.size();
        if (n == 0 || out.end(n - 1) != pos) {
            return false;
        }
        TokenType t = out.type(n - 1);
        return t == TokenType.IDENTIFIER || t == TokenType.QUOTED_IDENTIFIER || t == TokenType.KEYWORD;
    }

    static int hexDigit(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** A word: identifier, keyword, X'..', B'..', N'..', or an introducer with its literal. */
    private int word(byte[] sql, int pos, int end, TokenBuffer out) {
        byte first = sql[pos];
        if (pos + 1 < end && sql[pos + 1] == '\'') {
            if (first == 'x' || first == 'X' || first == 'b' || first == 'B') {
                return quotedBits(sql, pos, end, pos + 1, first == 'x' || first == 'X', 0, out);
            }
            if (first == 'n' || first == 'N') {
                return string(sql, pos, end, pos + 1, TokenBuffer.FLAG_NATIONAL, out);
            }
        }
        int p = pos;
        int hash = 0;
        while (p < end) {
            byte b = sql[p];
            if (IDENT[b & 0xFF] == 0) {
                break;
            }
            hash = hash * 31 + (b & 0xDF);
            p++;
        }
        if (followsIdentifierDot(out, pos)) {
            out.add(TokenType.IDENTIFIER, pos, p, -1, 0);
            return p;
        }
        if (first == '_' && Charsets.isIntroducer(sql, pos + 1, p)) {
            int r = introducedLiteral(sql, pos, p, end, out);
            if (r != 0) {
                return r;
            }
        }
        Keyword k = Keyword.lookup(sql, pos, p, hash);
        if (k != null) {
            out.add(TokenType.KEYWORD, pos, p, k.ordinal(), 0);
        } else {
            out.add(TokenType.IDENTIFIER, pos, p, -1, 0);
        }
        return p;
    }

    /**
     * {@code _charset} ends at {@code nameEnd}; if a literal follows (after optional whitespace),
     * lexes both as one token and returns the position after it (-1 on error). Returns 0 if no
     * literal follows, so the word is an ordinary identifier.
     */
    private int introducedLiteral(byte[] sql, int pos, int nameEnd, int end, TokenBuffer out) {
        int q = nameEnd;
        while (q < end && isSpace(sql[q])) {
            q++;
        }
        if (q >= end || q - pos > 0xFFFF) {
            return 0;
        }
        byte b = sql[q];
        if (b == '\'' || (b == '"' && !ansiQuotes)) {
            return string(sql, pos, end, q, TokenBuffer.FLAG_INTRODUCER, out);
        }
        if (q + 1 < end && sql[q + 1] == '\'' && (b == 'x' || b == 'X' || b == 'b' || b == 'B')) {
            return quotedBits(sql, pos, end, q + 1, b == 'x' || b == 'X', TokenBuffer.FLAG_INTRODUCER, out);
        }
        if (b == '0' && q + 2 < end && (sql[q + 1] == 'x' || sql[q + 1] == 'b')) {
            boolean hex = sql[q + 1] == 'x';
            int p = q + 2;
            while (p < end && (hex ? hexDigit(sql[p]) >= 0 : (sql[p] == '0' || sql[p] == '1'))) {
                p++;
            }
            if (p > q + 2 && (p >= end || !isIdent(sql[p]))) {
                int flags = TokenBuffer.FLAG_INTRODUCER | TokenBuffer.FLAG_PREFIX_FORM | ((q - pos) << 16);
                out.add(hex ? TokenType.HEX : TokenType.BIT, pos, p, -1, flags);
                return p;
            }
        }
        return 0;
    }

    /** X'0A' or B'01' with the opening quote at {@code quotePos}. */
    private static int quotedBits(byte[] sql, int tokenStart, int end, int quotePos, boolean hex, int flags, TokenBuffer out) {
        int p = quotePos + 1;
        while (p < end && sql[p] != '\'') {
            p++;
        }
        if (p >= end) {
            out.add(TokenType.ERROR, tokenStart, end, LexError.UNTERMINATED_STRING.ordinal(), 0);
            return -1;
        }
        out.add(hex ? TokenType.HEX : TokenType.BIT, tokenStart, p + 1, -1, flags | ((quotePos - tokenStart) << 16));
        return p + 1;
    }

    /** {@code @name}, {@code @`name`}, {@code @'name'}, {@code @@[scope.]name}, or a lone {@code @}. */
    private int variable(byte[] sql, int pos, int end, TokenBuffer out) {
        int p = pos + 1;
        if (p < end && sql[p] == '@') {
            p++;
            int nameStart = p;
            while (p < end) {
                if (sql[p] == '`') {
                    int close = p + 1;
                    while (close < end && sql[close] != '`') {
                        close++;
                    }
                    if (close >= end) {
                        out.add(TokenType.ERROR, pos, end, LexError.UNTERMINATED_IDENTIFIER.ordinal(), 0);
                        return -1;
                    }
                    p = close + 1;
                } else if (isIdent(sql[p])) {
                    while (p < end && isIdent(sql[p])) {
                        p++;
                    }
                } else {
                    break;
                }
                if (p + 1 < end && sql[p] == '.' && (isIdent(sql[p + 1]) || sql[p + 1] == '`')) {
                    p++;
                } else {
                    break;
                }
            }
            if (p == nameStart) {
                out.add(TokenType.AT, pos, pos + 1, -1, 0);
                out.add(TokenType.AT, pos + 1, pos + 2, -1, 0);
                return pos + 2;
            }
            out.add(TokenType.SYSTEM_VARIABLE, pos, p, -1, 0);
            return p;
        }
        if (p < end && (sql[p] == '`' || sql[p] == '\'' || sql[p] == '"')) {
            byte quote = sql[p];
            int q = p + 1;
            while (q < end) {
                if (sql[q] == quote) {
                    if (q + 1 < end && sql[q + 1] == quote) {
                        q += 2;
                        continue;
                    }
                    out.add(TokenType.USER_VARIABLE, pos, q + 1, -1, 0);
                    return q + 1;
                }
                if (sql[q] == '\\' && quote != '`' && backslashEscapes) {
                    q++;
                }
                q++;
            }
            out.add(TokenType.ERROR, pos, end, LexError.UNTERMINATED_STRING.ordinal(), 0);
            return -1;
        }
        while (p < end && (isIdent(sql[p]) || sql[p] == '.')) {
            p++;
        }
        if (p == pos + 1) {
            out.add(TokenType.AT, pos, pos + 1, -1, 0);
        } else {
            out.add(TokenType.USER_VARIABLE, pos, p, -1, 0);
        }
        return p;
    }
}

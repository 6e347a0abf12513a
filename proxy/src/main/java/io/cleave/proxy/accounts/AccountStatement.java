package io.cleave.proxy.accounts;

import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an account statement names, read from its tokens: the accounts and roles it changes (whose
 * state is kept to undo it on shards that applied it when another refused it), the roles whose
 * grantees it changes too (DROP ROLE), and new passwords given in clear text (with which the proxy
 * goes on logging in to the shards as those accounts).
 *
 * @param named       the accounts and roles named as changed; an unqualified name ({@link Name#host()}
 *                    null) may be a role or {@code 'name'@'%'}; {@link Name#CURRENT_USER} stands for
 *                    the session's own account
 * @param droppedRoles roles whose grants to others go with them (DROP ROLE)
 * @param passwords   clear-text passwords set, by the name they are set for
 */
public record AccountStatement(Kind kind, List<Name> named, List<String> droppedRoles, Map<Name, String> passwords) {

    public enum Kind { CREATE_USER, ALTER_USER, DROP_USER, RENAME_USER, CREATE_ROLE, DROP_ROLE, GRANT, REVOKE,
        SET_PASSWORD, SET_DEFAULT_ROLE, FLUSH_PRIVILEGES }

    /** A user or role as written: host null when none was given. */
    public record Name(String user, String host) {
        public static final Name CURRENT_USER = new Name("CURRENT_USER", "\0");

        public boolean current() {
            return this.equals(CURRENT_USER);
        }
    }

    /** Reads {@code tokens} (an account statement, as the router classified it); null when it is none of the kinds. */
    public static AccountStatement of(TokenBuffer tokens) {
        return new Reader(tokens).read();
    }

    private static final class Reader {
        private final TokenBuffer t;
        private int i;
        private final List<Name> named = new ArrayList<>();
        private final List<String> droppedRoles = new ArrayList<>();
        private final Map<Name, String> passwords = new LinkedHashMap<>();

        Reader(TokenBuffer tokens) {
            this.t = tokens;
        }

        AccountStatement read() {
            String first = word();
            i++;
            Kind kind;
            switch (first) {
                case "CREATE", "ALTER", "DROP", "RENAME" -> {
                    if (is("OR")) {
                        i += 2;
                    }
                    boolean role = is("ROLE");
                    if (!role && !is("USER")) {
                        return null;
                    }
                    i++;
                    skip("IF", "NOT", "EXISTS");
                    kind = switch (first) {
                        case "CREATE" -> role ? Kind.CREATE_ROLE : Kind.CREATE_USER;
                        case "ALTER" -> Kind.ALTER_USER;
                        case "DROP" -> role ? Kind.DROP_ROLE : Kind.DROP_USER;
                        default -> Kind.RENAME_USER;
                    };
                    names(kind);
                }
                case "GRANT", "REVOKE" -> {
                    kind = first.equals("GRANT") ? Kind.GRANT : Kind.REVOKE;
                    String to = kind == Kind.GRANT ? "TO" : "FROM";
                    while (i < end() && !(is(to) && depthZero())) {
                        i++;
                    }
                    i++;
                    names(kind);
                }
                case "SET" -> {
                    if (is("PASSWORD")) {
                        kind = Kind.SET_PASSWORD;
                        i++;
                        Name who = Name.CURRENT_USER;
                        if (is("FOR")) {
                            i++;
                            who = name();
                        }
                        named.add(who);
                        setPassword(who);
                    } else if (is("DEFAULT")) {
                        kind = Kind.SET_DEFAULT_ROLE;
                        Name who = Name.CURRENT_USER;
                        for (; i < end(); i++) {
                            if (is("FOR")) {
                                i++;
                                who = name();
                                break;
                            }
                        }
                        named.add(who);
                    } else {
                        return null;
                    }
                }
                case "FLUSH" -> kind = Kind.FLUSH_PRIVILEGES;
                default -> {
                    return null;
                }
            }
            return new AccountStatement(kind, List.copyOf(named), List.copyOf(droppedRoles), Map.copyOf(passwords));
        }

        /** The list of users or roles from here: each name, then what belongs to it up to the next comma. */
        private void names(Kind kind) {
            while (i < end()) {
                Name n = name();
                if (n == null) {
                    return;
                }
                named.add(n);
                if (kind == Kind.DROP_ROLE) {
                    droppedRoles.add(n.user());
                }
                if (kind == Kind.RENAME_USER && is("TO")) {
                    i++;
                    Name renamed = name();
                    if (renamed != null) {
                        named.add(renamed);
                    }
                }
                if (kind == Kind.CREATE_ROLE && is("WITH") && isAt(i + 1, "ADMIN")) {
                    i += 2;
                    Name admin = name();
                    if (admin != null) {
                        named.add(admin);
                    }
                }
                if (kind == Kind.CREATE_ROLE && !named.contains(Name.CURRENT_USER) && named.size() == 1) {
                    // Without WITH ADMIN the creator is granted the role.
                    named.add(Name.CURRENT_USER);
                }
                int depth = 0;
                while (i < end()) {
                    TokenType type = t.type(i);
                    if (type == TokenType.LPAREN) {
                        depth++;
                    } else if (type == TokenType.RPAREN) {
                        depth--;
                    } else if (depth == 0 && type == TokenType.COMMA) {
                        break;
                    } else if (depth == 0 && is("IDENTIFIED") && isAt(i + 1, "BY") && t.type(i + 2) == TokenType.STRING) {
                        passwords.put(n, string(i + 2));
                    }
                    i++;
                }
                if (i >= end()) {
                    return;
                }
                i++;
            }
        }

        private void setPassword(Name who) {
            for (; i < end(); i++) {
                if (is("PASSWORD") && t.type(i + 1) == TokenType.LPAREN && t.type(i + 2) == TokenType.STRING) {
                    passwords.put(who, string(i + 2));
                    return;
                }
            }
        }

        /** A user or role name at the cursor (with its host), moving past it; null when there is none. */
        private Name name() {
            if (i >= end()) {
                return null;
            }
            if (is("CURRENT_USER")) {
                i++;
                if (t.type(i) == TokenType.LPAREN && t.type(i + 1) == TokenType.RPAREN) {
                    i += 2;
                }
                return Name.CURRENT_USER;
            }
            TokenType type = t.type(i);
            String user;
            if (type == TokenType.STRING) {
                user = string(i);
            } else if (type == TokenType.QUOTED_IDENTIFIER) {
                user = unquote(t.text(i));
            } else if (type == TokenType.IDENTIFIER || type == TokenType.KEYWORD) {
                user = t.text(i);
            } else {
                return null;
            }
            i++;
            String host = null;
            if (i < end() && t.type(i) == TokenType.USER_VARIABLE && adjacent(i - 1, i)) {
                host = unquote(t.text(i).substring(1));
                i++;
            } else if (i + 1 < end() && t.type(i) == TokenType.AT) {
                host = t.type(i + 1) == TokenType.STRING ? string(i + 1) : unquote(t.text(i + 1));
                i += 2;
            }
            return new Name(user, host);
        }

        private boolean adjacent(int a, int b) {
            return t.end(a) == t.start(b);
        }

        private String string(int at) {
            return unquote(t.text(at));
        }

        private boolean depthZero() {
            int depth = 0;
            for (int k = 0; k < i; k++) {
                if (t.type(k) == TokenType.LPAREN) {
                    depth++;
                } else if (t.type(k) == TokenType.RPAREN) {
                    depth--;
                }
            }
            return depth == 0;
        }

        private void skip(String... words) {
            for (String w : words) {
                if (is(w)) {
                    i++;
                }
            }
        }

        private boolean is(String w) {
            return isAt(i, w);
        }

        private boolean isAt(int at, String w) {
            return at < end() && (t.type(at) == TokenType.KEYWORD || t.type(at) == TokenType.IDENTIFIER)
                    && t.text(at).equalsIgnoreCase(w);
        }

        private String word() {
            return i < end() ? t.text(i).toUpperCase(Locale.ROOT) : "";
        }

        private int end() {
            int n = t.size();
            while (n > 0 && (t.type(n - 1) == TokenType.EOF || t.type(n - 1) == TokenType.SEMICOLON)) {
                n--;
            }
            return n;
        }
    }

    /** The text of a quoted string or identifier, quotes removed and doubled quotes and escapes undone. */
    public static String unquote(String s) {
        if (s.length() >= 2) {
            char q = s.charAt(0);
            if ((q == '\'' || q == '"' || q == '`') && s.charAt(s.length() - 1) == q) {
                String body = s.substring(1, s.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
                return q == '`' ? body : body.replace("\\\\", "\u0000").replace("\\'", "'").replace("\\\"", "\"")
                        .replace("\u0000", "\\");
            }
        }
        return s;
    }
}

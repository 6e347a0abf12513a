package io.cleave.proxy.accounts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The accounts of the shards' grant tables, as last read (immutable). A login finds its account
 * as the server does: among the accounts whose user is the client's (or anonymous) and whose
 * host pattern matches the client's address, the most specific (see {@link HostPattern}); named
 * users before anonymous ones. Roles never log in. The shard account is never here.
 */
public final class AccountDirectory {

    public static final AccountDirectory EMPTY = new AccountDirectory(List.of(), Limits.NONE);

    /**
     * What the server applies to every account without its own setting.
     *
     * @param maxUserConnections    {@code @@max_user_connections} (0: no limit)
     * @param passwordLifetimeDays  {@code @@default_password_lifetime} (0: passwords never expire by age)
     */
    public record Limits(long maxUserConnections, long passwordLifetimeDays) {
        public static final Limits NONE = new Limits(0, 0);
    }

    private final Limits limits;
    private final Map<String, List<Account>> byUser = new HashMap<>();
    private final List<Account> anonymous = new ArrayList<>();
    private final Map<AccountName, Account> byName = new HashMap<>();

    public AccountDirectory(List<Account> accounts, Limits limits) {
        this.limits = limits;
        Comparator<Account> order = Comparator.comparingInt(Account::rank).reversed()
                .thenComparing(a -> a.name().host(), Comparator.reverseOrder());
        for (Account a : accounts) {
            byName.put(a.name(), a);
            if (a.role()) {
                continue;
            }
            if (a.name().user().isEmpty()) {
                anonymous.add(a);
            } else {
                byUser.computeIfAbsent(a.name().user(), u -> new ArrayList<>()).add(a);
            }
        }
        byUser.values().forEach(list -> list.sort(order));
        anonymous.sort(order);
    }

    /** The account a login as {@code user} from {@code client} is checked against, or null when none matches. */
    public Account resolve(String user, ClientAddress client) {
        Account named = null;
        for (Account a : byUser.getOrDefault(user, List.of())) {
            if (HostPattern.matches(a.name().host(), client)) {
                named = a;
                break;
            }
        }
        for (Account a : anonymous) {
            if (named != null && a.rank() <= named.rank()) {
                break;
            }
            if (HostPattern.matches(a.name().host(), client)) {
                return a;
            }
        }
        return named;
    }

    /** The account or role of that exact name, or null. */
    public Account find(AccountName name) {
        return byName.get(name);
    }

    public int size() {
        return byName.size();
    }

    /** Every account and role. */
    public java.util.Collection<Account> accounts() {
        return byName.values();
    }

    public Limits limits() {
        return limits;
    }

    /** The most simultaneous connections {@code account} may have: its own limit, else the server's; 0 for none. */
    public long connectionLimit(Account account) {
        return account.maxUserConnections() > 0 ? account.maxUserConnections() : limits.maxUserConnections();
    }
}

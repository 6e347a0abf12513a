package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.Account;
import io.cleave.proxy.backend.ShardLogin;

/**
 * Who a session is: the user name the client logged in with, the account of the grant tables it
 * logged in as (CURRENT_USER()), and the backend login its statements run with.
 */
record SessionAccount(String user, Account account, ShardLogin shardLogin) {
}

package io.cleave.manager.admin;

import io.cleave.proxy.server.XaRecovery;

import java.util.List;

/**
 * What {@code POST /v1/xa/recover} answers.
 *
 * @param settled branches the pass committed or rolled back
 * @param inDoubt branches still prepared after it (coordinator unreachable, or being committed)
 */
public record RecoveryReport(int settled, List<XaRecovery.InDoubtBranch> inDoubt) {

    public RecoveryReport {
        inDoubt = List.copyOf(inDoubt);
    }
}

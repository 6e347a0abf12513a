package io.cleave.manager.standby.relay;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The relay's counts, written from its event loop and read by status and /metrics. */
final class RelayCounters {

    final AtomicLong active = new AtomicLong();
    final LongAdder relayed = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder bytesToPrimary = new LongAdder();
    final LongAdder bytesToClients = new LongAdder();
}

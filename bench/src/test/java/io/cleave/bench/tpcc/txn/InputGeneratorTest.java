package io.cleave.bench.tpcc.txn;

import static org.assertj.core.api.Assertions.assertThat;

import io.cleave.bench.tpcc.TpccScale;
import io.cleave.bench.tpcc.data.NURandConstants;
import io.cleave.bench.tpcc.data.TpccRandom;
import io.cleave.bench.tpcc.txn.TransactionInput.OrderLine;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class InputGeneratorTest {
    private static final NURandConstants CONSTANTS = new NURandConstants(123, 259, 7911);

    private static InputGenerator generator(int warehouses) {
        return new InputGenerator(new TpccRandom(5), warehouses, CONSTANTS);
    }

    @Test
    void oneWarehouseIsNeverRemote() {
        InputGenerator inputs = generator(1);
        for (int i = 0; i < 20_000; i++) {
            TransactionInput.NewOrder order = inputs.newOrder(1);
            assertThat(order.lines()).allMatch(line -> line.supplyWarehouse() == 1);
            assertThat(order.allLocal()).isTrue();
            TransactionInput.Payment payment = inputs.payment(1);
            assertThat(payment.customerWarehouse()).isEqualTo(1);
            assertThat(payment.customerDistrict()).isEqualTo(payment.district());
        }
    }

    @Test
    void remoteSupplyIsAnotherWarehouseInAboutOnePercentOfLines() {
        InputGenerator inputs = generator(4);
        long lines = 0;
        long remote = 0;
        for (int i = 0; i < 20_000; i++) {
            TransactionInput.NewOrder order = inputs.newOrder(3);
            for (OrderLine line : order.lines()) {
                lines++;
                assertThat(line.supplyWarehouse()).isBetween(1, 4);
                if (line.supplyWarehouse() != 3) {
                    remote++;
                }
            }
            assertThat(order.allLocal()).isEqualTo(order.lines().stream().allMatch(l -> l.supplyWarehouse() == 3));
        }
        assertThat((double) remote / lines).isBetween(0.008, 0.012);
    }

    @Test
    void remotePaymentIsAnotherWarehouseInAboutFifteenPercent() {
        InputGenerator inputs = generator(2);
        int remote = 0;
        int byName = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            TransactionInput.Payment payment = inputs.payment(2);
            assertThat(payment.warehouse()).isEqualTo(2);
            assertThat(payment.customerWarehouse()).isBetween(1, 2);
            if (payment.customerWarehouse() != 2) {
                remote++;
            }
            if (payment.customer().isByLastName()) {
                byName++;
                assertThat(payment.customer().lastName()).matches("[A-Z]+");
            } else {
                assertThat(payment.customer().id()).isBetween(1, TpccScale.CUSTOMERS_PER_DISTRICT);
            }
            assertThat(payment.amount()).isBetween(new BigDecimal("1.00"), new BigDecimal("5000.00"));
        }
        assertThat((double) remote / n).isBetween(0.14, 0.16);
        assertThat((double) byName / n).isBetween(0.58, 0.62);
    }

    @Test
    void orderStatusLooksUpSixtyPercentByLastName() {
        InputGenerator inputs = generator(3);
        int byName = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            if (inputs.orderStatus(1).customer().isByLastName()) {
                byName++;
            }
        }
        assertThat((double) byName / n).isBetween(0.58, 0.62);
    }

    @Test
    void newOrderShapeAndTheOnePercentRollback() {
        InputGenerator inputs = generator(1);
        int rollbacks = 0;
        int n = 50_000;
        for (int i = 0; i < n; i++) {
            TransactionInput.NewOrder order = inputs.newOrder(1);
            assertThat(order.lines()).hasSizeBetween(5, 15);
            assertThat(order.district()).isBetween(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
            assertThat(order.customer()).isBetween(1, TpccScale.CUSTOMERS_PER_DISTRICT);
            for (int l = 0; l < order.lines().size(); l++) {
                OrderLine line = order.lines().get(l);
                assertThat(line.quantity()).isBetween(1, 10);
                boolean last = l == order.lines().size() - 1;
                if (order.rollback() && last) {
                    assertThat(line.itemId()).isEqualTo(InputGenerator.UNUSED_ITEM_ID);
                } else {
                    assertThat(line.itemId()).isBetween(1, TpccScale.ITEMS);
                }
            }
            if (order.rollback()) {
                rollbacks++;
            }
        }
        assertThat((double) rollbacks / n).isBetween(0.008, 0.012);
    }

    @Test
    void deliveryAndStockLevelInputs() {
        InputGenerator inputs = generator(1);
        for (int i = 0; i < 1_000; i++) {
            TransactionInput.Delivery delivery = (TransactionInput.Delivery) inputs.next(TransactionType.DELIVERY, 1);
            assertThat(delivery.carrier()).isBetween(1, 10);
            TransactionInput.StockLevel stock = (TransactionInput.StockLevel) inputs.next(TransactionType.STOCK_LEVEL, 1);
            assertThat(stock.threshold()).isBetween(10, 20);
            assertThat(stock.district()).isBetween(1, 10);
        }
    }
}

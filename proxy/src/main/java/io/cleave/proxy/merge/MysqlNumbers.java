package io.cleave.proxy.merge;

import java.math.BigDecimal;

/** Numbers written the way the server writes them in text results. */
final class MysqlNumbers {

    private MysqlNumbers() {
    }

    /**
     * A DOUBLE as MySQL prints it: shortest round-trip digits, no ".0" on integral values, and
     * exponent notation ("1e20", "1.5e-7") only for very large or small magnitudes.
     */
    static String formatDouble(double d) {
        if (d == 0) {
            return "0";
        }
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return Double.toString(d);
        }
        BigDecimal exact = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        int exponent = exact.precision() - exact.scale() - 1;
        if (exponent < -5 || exponent >= 15) {
            String digits = exact.unscaledValue().abs().toString();
            StringBuilder sb = new StringBuilder();
            if (d < 0) {
                sb.append('-');
            }
            sb.append(digits.charAt(0));
            if (digits.length() > 1) {
                sb.append('.').append(digits, 1, digits.length());
            }
            sb.append('e').append(exponent);
            return sb.toString();
        }
        return exact.toPlainString();
    }
}

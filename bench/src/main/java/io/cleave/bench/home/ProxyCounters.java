package io.cleave.bench.home;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Statements the proxy served, from the daemon's Prometheus endpoint: the sum of
 * cleave_proxy_queries_total over COM_QUERY and COM_STMT_EXECUTE, whatever the route. Prepares,
 * closes and pings are left out, as the server's own Questions counter leaves them out.
 */
final class ProxyCounters {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ProxyCounters() {
    }

    static long statements(int adminPort) {
        return statements(fetch(adminPort));
    }

    /** The daemon's /metrics page, Prometheus text. */
    static String fetch(int adminPort) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/metrics"))
            .timeout(Duration.ofSeconds(10)).GET().build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET /metrics answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the daemon's /metrics: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static long statements(String prometheusText) {
        double sum = 0;
        for (String line : prometheusText.split("\n")) {
            if (line.startsWith("cleave_proxy_queries_total{")
                && (line.contains("command=\"query\"") || line.contains("command=\"stmt_execute\""))) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Math.round(sum);
    }
}

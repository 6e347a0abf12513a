package io.cleave.bench.home;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** The parts of {@code cleave status --json} a benchmark needs: which processes to meter, and what they run. */
public record HomeStatus(long daemonPid, String serverBinary, String proxy, List<Instance> instances) {

    /** One shard: its server process and where it listens. */
    public record Instance(int index, String state, long pid, int port, String socket, String serverVersion) {
    }

    public static HomeStatus parse(String json) {
        try {
            JsonNode root = new ObjectMapper().readTree(json);
            List<Instance> instances = new ArrayList<>();
            for (JsonNode i : root.path("instances")) {
                instances.add(new Instance(i.path("index").asInt(), i.path("state").asText(), i.path("pid").asLong(),
                    i.path("port").asInt(), i.path("socket").asText(), i.path("serverVersion").asText()));
            }
            return new HomeStatus(root.path("daemonPid").asLong(), root.path("serverBinary").asText(),
                root.path("proxy").asText(), List.copyOf(instances));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read cleave status --json: " + e.getMessage(), e);
        }
    }

    public List<Long> shardPids() {
        return instances.stream().map(Instance::pid).toList();
    }

    public boolean allRunning() {
        return !instances.isEmpty() && instances.stream().allMatch(i -> i.state().equals("RUNNING"));
    }
}

package io.stork.bench.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every measurement of one benchmark invocation (one link setting), with the scenarios and workloads in
 * report order, and the Stork scenario each peer is compared with: Stork over the same API.
 */
public final class Results {

    private final List<Scenario> scenarios;
    private final List<Workload> workloads;
    private final PriceTable prices;
    private final Map<String, List<Measurement>> byCell = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();

    public Results(List<Scenario> scenarios, List<Workload> workloads, PriceTable prices) {
        this.scenarios = List.copyOf(scenarios);
        this.workloads = List.copyOf(workloads);
        this.prices = prices;
    }

    public void add(List<Measurement> measurements) {
        measurements.forEach(m -> byCell.computeIfAbsent(key(m.scenario(), m.workload()), k -> new ArrayList<>()).add(m));
    }

    public void failed(String failure) {
        failures.add(failure);
    }

    public List<String> failures() {
        return List.copyOf(failures);
    }

    public List<Scenario> scenarios() {
        return scenarios;
    }

    public List<Workload> workloads() {
        return workloads;
    }

    public PriceTable prices() {
        return prices;
    }

    public List<Measurement> all() {
        return byCell.values().stream().flatMap(List::stream).toList();
    }

    public Optional<Cell> cell(String scenario, String workload) {
        List<Measurement> runs = byCell.get(key(scenario, workload));
        return runs == null ? Optional.empty() : Optional.of(new Cell(scenario, workload, runs, prices));
    }

    /** The Stork scenario a scenario's ratios are taken against: Stork over the same API, else any Stork. */
    public Optional<Scenario> baselineFor(Scenario scenario) {
        List<Scenario> storks = scenarios.stream().filter(s -> s.id().startsWith("stork-")).toList();
        return storks.stream().filter(s -> s.api().equals(scenario.api())).findFirst()
                .or(() -> storks.stream().findFirst());
    }

    private static String key(String scenario, String workload) {
        return scenario + "\u0000" + workload;
    }
}

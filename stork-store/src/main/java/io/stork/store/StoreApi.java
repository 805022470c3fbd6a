package io.stork.store;

import java.util.List;

/** The APIs Stork speaks: two wire APIs of real stores, and an in-memory store for tests. */
public enum StoreApi {
    S3("s3", "S3 API"),
    SWIFT("swift", "Swift API"),
    /**
     * The in-memory store of this JVM ({@link io.stork.store.memory.MemoryStores}): for unit tests and
     * development, never for data that must outlive the JVM.
     */
    MEMORY("memory", "in-memory store");

    private static final List<StoreApi> WIRE = List.of(S3, SWIFT);

    private final String scheme;
    private final String displayName;

    StoreApi(String scheme, String displayName) {
        this.scheme = scheme;
        this.displayName = displayName;
    }

    /** The APIs of real stores, S3 and Swift: what integration tests and benchmarks run against. */
    public static List<StoreApi> wire() {
        return WIRE;
    }

    public String scheme() {
        return scheme;
    }

    public String displayName() {
        return displayName;
    }
}

package io.stork.store;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An API Stork speaks, as its {@link StoreProvider} names it: the id users set in configuration
 * ({@code fs.stork.api}) and the scheme of objects in messages ({@code s3://bucket/key}), and a name for
 * people. A value, not a closed list: a backend's module makes its own, and nothing else needs to know it.
 *
 * <p>{@link #S3}, {@link #SWIFT} and {@link #MEMORY} are the APIs this project ships, named here so that
 * tests, the demo and the benchmarks can say which they mean without depending on a client's module.
 */
public record StoreApi(String id, String displayName) {

    /** Lower case, as in a URI scheme: what {@code fs.stork.api} is compared with, after lower-casing. */
    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9+.-]*");

    public static final StoreApi S3 = new StoreApi("s3", "S3 API");
    public static final StoreApi SWIFT = new StoreApi("swift", "Swift API");
    /**
     * The in-memory store of this JVM ({@link io.stork.store.memory.MemoryStores}): for unit tests and
     * development, never for data that must outlive the JVM.
     */
    public static final StoreApi MEMORY = new StoreApi("memory", "in-memory store");

    private static final List<StoreApi> WIRE = List.of(S3, SWIFT);

    public StoreApi {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(displayName, "displayName");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a store API's id is a lower-case scheme, not '" + id + "'");
        }
    }

    /**
     * The APIs of real stores, S3 and Swift: what integration tests and benchmarks run against (tests take
     * them with {@code @MethodSource("io.stork.store.StoreApi#wire")}).
     */
    public static List<StoreApi> wire() {
        return WIRE;
    }

    /** The id, so that parameterised tests are named {@code [1] s3}. */
    @Override
    public String toString() {
        return id;
    }
}

package io.stork.localstore;

/**
 * Keeps the unit lane free of servers. Surefire runs the unit tests with {@code stork.test.lane=unit} (root
 * pom); Failsafe runs the integration tests, the classes named {@code *StoreTest} or {@code *IT}, without it.
 * Everything that reaches outside the test's JVM (the local store, the conditional S3 gateway, a Spark
 * cluster or process) calls {@link #requireIntegration} first, so a test that needs a server but is named
 * like a unit test fails at once with the fix in its message, instead of starting a store in the fast lane.
 */
public final class TestLane {

    /** The system property Surefire sets to {@value #UNIT}. */
    public static final String PROPERTY = "stork.test.lane";
    public static final String UNIT = "unit";

    private TestLane() {
    }

    /** Fails in the unit lane, naming what was asked for and how to move the test to the integration lane. */
    public static void requireIntegration(String what) {
        if (UNIT.equals(System.getProperty(PROPERTY))) {
            throw new IllegalStateException(what + " is not available to unit tests (Surefire): name the test class "
                    + "*IT or *StoreTest so that Failsafe runs it, one class with -Dit.test=<class> (README, \"Tests\")");
        }
    }
}

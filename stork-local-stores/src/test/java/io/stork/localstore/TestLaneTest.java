package io.stork.localstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The unit lane refuses the servers, so a server test named like a unit test cannot hide in it. */
class TestLaneTest {

    @Test
    void surefireRunsUnitTestsInTheUnitLane() {
        assertThat(System.getProperty(TestLane.PROPERTY)).as("set by Surefire's configuration in the root pom")
                .isEqualTo(TestLane.UNIT);
    }

    @Test
    void theStoresRefuseToStartInTheUnitLaneWithTheFixInOneLine() {
        // Set here too: run outside Surefire (an IDE), this test must not start a store either.
        String lane = System.setProperty(TestLane.PROPERTY, TestLane.UNIT);
        try {
            assertThatThrownBy(LocalStore::shared).isInstanceOf(IllegalStateException.class)
                    .hasMessageNotContaining("\n")
                    .hasMessageContaining("the local store is not available to unit tests")
                    .hasMessageContaining("*IT or *StoreTest");
            assertThatThrownBy(ConditionalS3Store::shared).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the conditional S3 gateway");
        } finally {
            if (lane == null) {
                System.clearProperty(TestLane.PROPERTY);
            } else {
                System.setProperty(TestLane.PROPERTY, lane);
            }
        }
    }
}

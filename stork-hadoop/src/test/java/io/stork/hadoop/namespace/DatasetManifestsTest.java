package io.stork.hadoop.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.store.CallType;
import io.stork.store.ObjectKey;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.memory.InMemoryObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The manifest cache's calls, fast, over the in-memory store (the real store's counts are asserted in
 * stork-spark-tests): a status call loads, the same query's listing reuses it, later listings revalidate,
 * other writers' commits are seen at the next listing, a corrupt manifest fails.
 */
class DatasetManifestsTest {

    private final InMemoryObjectStore store = new InMemoryObjectStore();
    private final DatasetManifests manifests = new DatasetManifests(store, "b", 10, Duration.ofMinutes(1),
            Duration.ofDays(7));

    private void commit(long generation, String... paths) throws IOException {
        List<ManifestPart> parts = java.util.Arrays.stream(paths)
                .map(p -> new ManifestPart(p, 1, "e-" + p, "job", 0, 0, 0, null, null)).toList();
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        ManifestCodec.write(new Manifest(1, "t", "job-" + generation, generation, Manifest.Operation.APPEND,
                Instant.EPOCH, Instant.EPOCH, parts), json);
        store.put(ObjectKey.of("b", "t/_SUCCESS"), PutBody.of(json.toByteArray()), PutOptions.defaults());
    }

    private long gets() {
        return store.statistics().snapshot().calls(CallType.GET);
    }

    @Test
    void oneManifestCallPerQueryAndOtherWritersSeenAtTheNextListing() throws IOException {
        store.createBucket("b");
        commit(1, "p1");
        assertThat(manifests.at("t")).isPresent(); // the query's existence check: GET
        assertThat(manifests.forListing("t").orElseThrow().manifest().generation()).isEqualTo(1);
        assertThat(gets()).as("the listing reused the check's read").isEqualTo(1);

        assertThat(manifests.forListing("t").orElseThrow().manifest().generation()).isEqualTo(1);
        assertThat(gets()).as("the next query revalidates (304)").isEqualTo(2);

        commit(2, "p1", "p2");
        assertThat(manifests.at("t").orElseThrow().manifest().generation()).as("a status call trusts its cache")
                .isEqualTo(1);
        assertThat(manifests.forListing("t").orElseThrow().manifest().generation()).isEqualTo(2);
        assertThat(gets()).isEqualTo(3);
    }

    @Test
    void aCorruptManifestFailsInsteadOfLookingAbsent() throws IOException {
        store.createBucket("b");
        store.put(ObjectKey.of("b", "t/_SUCCESS"), PutBody.of("garbage".getBytes()), PutOptions.defaults());
        assertThatThrownBy(() -> manifests.at("t")).hasMessageContaining("corrupt Stork manifest stork://b/t/_SUCCESS");
    }
}

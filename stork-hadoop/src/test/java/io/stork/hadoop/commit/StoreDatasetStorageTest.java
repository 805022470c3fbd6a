package io.stork.hadoop.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.commit.CommitPoint;
import io.stork.manifest.commit.CommitSettings;
import io.stork.manifest.commit.DatasetStorage;
import io.stork.manifest.commit.MergePlan;
import io.stork.store.CallType;
import io.stork.store.ObjectKey;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.memory.InMemoryObjectStore;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The emulation's commit storage over the in-memory store: the same claims and manifests, counted. */
class StoreDatasetStorageTest {

    @Test
    void commitsAdoptPlainFilesClaimAtomicallyAndCountTheirCalls() throws Exception {
        InMemoryObjectStore store = new InMemoryObjectStore();
        store.createBucket("b");
        store.put(ObjectKey.of("b", "out/old.csv"), PutBody.of(new byte[3]), PutOptions.defaults());
        StoreDatasetStorage storage = new StoreDatasetStorage(store, "b", "out");
        assertThat(storage.createGuarantee()).isEqualTo(DatasetStorage.CreateGuarantee.ATOMIC);
        CommitPoint commitPoint = new CommitPoint(storage, CommitSettings.defaults());

        Manifest first = commitPoint.commit(new CommitPoint.Request("job-1", "test",
                List.of(new ManifestPart("part-0", 5, "e0", "job-1", 0, 0, 0, null, null)), MergePlan.APPEND, false,
                Instant.now()));
        assertThat(first.parts()).extracting(ManifestPart::path).containsExactly("old.csv", "part-0");

        long putsBefore = store.statistics().snapshot().calls(CallType.PUT);
        Manifest second = commitPoint.commit(new CommitPoint.Request("job-2", "test",
                List.of(new ManifestPart("part-1", 5, "e1", "job-2", 0, 0, 0, null, null)), MergePlan.APPEND, false,
                Instant.now()));
        assertThat(second.generation()).isEqualTo(2);
        assertThat(store.statistics().snapshot().calls(CallType.PUT) - putsBefore).as("claim + manifest").isEqualTo(2);
        assertThat(storage.readClaim(2)).isPresent();
        assertThat(commitPoint.mayName("job-2")).isTrue();
    }
}

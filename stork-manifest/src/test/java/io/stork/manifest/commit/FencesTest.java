package io.stork.manifest.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Maintenance fences the attempts whose parts it deletes; a commit naming one of them fails, at no call. */
class FencesTest {

    private final MemoryDatasetStorage storage = new MemoryDatasetStorage();
    private Instant now = Instant.parse("2026-11-26T10:00:00Z");
    private final CommitPoint commitPoint = new CommitPoint(storage, new CommitSettings(Duration.ofDays(7),
            Duration.ZERO, Duration.ofSeconds(60), new Clock() {
                @Override
                public ZoneOffset getZone() {
                    return ZoneOffset.UTC;
                }

                @Override
                public Clock withZone(java.time.ZoneId zone) {
                    return this;
                }

                @Override
                public Instant instant() {
                    return now;
                }
            }));

    private static ManifestPart part(String job, int task, long attempt) {
        String name = PartNames.partFileName(task, job, attempt, ".csv");
        return new ManifestPart(name, 10, "etag-" + name, job, task, attempt, 0, 1L, null);
    }

    private static String attempt(ManifestPart part) {
        return PartNames.attemptOf(part.path()).orElseThrow();
    }

    private Manifest commit(String job, List<ManifestPart> parts, boolean knownEmpty, Manifest knownPrevious)
            throws Exception {
        return commitPoint.commit(new CommitPoint.Request(job, "test", parts, MergePlan.APPEND, knownEmpty, now,
                knownPrevious));
    }

    @Test
    void aFencedAttemptsPartIsNeverCommittedAndTheDatasetStaysAsItWas() throws Exception {
        String first = UUID.randomUUID().toString();
        Manifest one = commit(first, List.of(part(first, 0, 0)), true, null);
        String running = UUID.randomUUID().toString();
        ManifestPart deleted = part(running, 1, 7);
        ManifestPart retried = part(running, 1, 9);

        Manifest fence = commitPoint.commit(CommitPoint.Request.fence("vacuum-1", "tool", Set.of(attempt(deleted))));
        assertThat(fence.generation()).isEqualTo(2);
        assertThat(fence.operation()).isEqualTo(Manifest.Operation.MAINTENANCE);
        assertThat(fence.parts()).isEqualTo(one.parts());
        assertThat(Fences.of(fence)).containsOnlyKeys(running + "/1/7");

        assertThatThrownBy(() -> commit(running, List.of(part(running, 0, 3), deleted), false, null))
                .isInstanceOf(FencedJobException.class)
                .hasMessageContaining("its part " + deleted.path() + " was deleted by maintenance")
                .hasMessageContaining("stays at generation 2").hasMessageNotContaining("\n");
        assertThat(commitPoint.current().orElseThrow().generation()).isEqualTo(2);

        // Another attempt of the same job (the retry that succeeded) commits: only the deleted attempt is fenced.
        Manifest three = commit(running, List.of(retried), false, null);
        assertThat(three.generation()).isEqualTo(3);
        assertThat(Fences.of(three)).as("carried forward by every commit").containsOnlyKeys(running + "/1/7");
    }

    @Test
    void aCommitThatReadTheDatasetBeforeTheFenceLosesItsClaimAndThenSeesTheFence() throws Exception {
        String first = UUID.randomUUID().toString();
        Manifest one = commit(first, List.of(part(first, 0, 0)), true, null);
        String running = UUID.randomUUID().toString();
        ManifestPart deleted = part(running, 0, 4);
        commitPoint.commit(CommitPoint.Request.fence("clean-1", "tool", Set.of(attempt(deleted))));

        // The job builds on generation 1, read before the fence was written.
        assertThatThrownBy(() -> commit(running, List.of(deleted), false, one))
                .isInstanceOf(FencedJobException.class).hasMessageContaining("stays at generation 2");
        assertThat(commitPoint.current().orElseThrow().parts()).extracting(ManifestPart::path)
                .containsExactly(one.parts().get(0).path());
    }

    @Test
    void aNewDatasetsJobFencedBeforeItsFirstCommitFailsSayingWhy() throws Exception {
        String running = UUID.randomUUID().toString();
        ManifestPart deleted = part(running, 2, 11);
        Manifest fence = commitPoint.commit(CommitPoint.Request.fence("vacuum-2", "tool", Set.of(attempt(deleted))));
        assertThat(fence.generation()).isEqualTo(1);
        assertThat(fence.parts()).isEmpty();

        assertThatThrownBy(() -> commit(running, List.of(deleted), true, null))
                .isInstanceOf(FencedJobException.class).hasMessageContaining("stays at generation 1");
    }

    @Test
    void fencesOlderThanTheirLifetimeAreDroppedByTheNextFence() throws Exception {
        String first = UUID.randomUUID().toString();
        commit(first, List.of(part(first, 0, 0)), true, null);
        String old = UUID.randomUUID().toString();
        commitPoint.commit(CommitPoint.Request.fence("vacuum-1", "tool", Set.of(attempt(part(old, 0, 1)))));
        now = now.plus(Duration.ofDays(8));
        String recent = UUID.randomUUID().toString();
        Manifest fence = commitPoint.commit(CommitPoint.Request.fence("vacuum-2", "tool",
                Set.of(attempt(part(recent, 0, 2)))));
        assertThat(Fences.of(fence)).containsOnlyKeys(recent + "/0/2");
        assertThat(Fences.lifetime(Duration.ofDays(30))).isEqualTo(Duration.ofDays(30));
        assertThat(Fences.lifetime(Duration.ZERO)).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void attemptsAreNamedForBothNamingSchemes() {
        String job = UUID.randomUUID().toString();
        assertThat(PartNames.attemptOf(PartNames.partFileName(3, job, 17, ".c000.snappy.parquet")))
                .contains(job + "/3/17");
        assertThat(PartNames.attemptOf("part-r-00003-attempt_20261126_0001_r_000003_1.gz"))
                .contains("attempt_20261126_0001_r_000003_1");
        assertThat(PartNames.attemptOf("notes.txt")).isEmpty();
    }
}

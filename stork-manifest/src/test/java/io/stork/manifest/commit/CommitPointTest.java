package io.stork.manifest.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.Changes;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CommitPointTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00.123456789Z"); // sub-millisecond, as clocks are

    private final MemoryDatasetStorage storage = new MemoryDatasetStorage();
    private final MutableClock clock = new MutableClock(T0);
    private final CommitPoint commitPoint = new CommitPoint(storage,
            new CommitSettings(Duration.ofDays(7), Duration.ZERO, Duration.ofSeconds(60), clock));

    private static List<ManifestPart> parts(String job, String... paths) {
        List<ManifestPart> parts = new ArrayList<>();
        for (String path : paths) {
            parts.add(new ManifestPart(path, path.length(), "etag-" + path, job, parts.size(), 0, 0, 1L, null));
        }
        return parts;
    }

    private Manifest commit(String job, MergePlan plan, String... paths) throws Exception {
        return commitPoint.commit(new CommitPoint.Request(job, "test", parts(job, paths), plan, false, clock.instant()));
    }

    private static MergePlan overwrite() {
        return new MergePlan() {
            @Override
            public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
                return List.of();
            }

            @Override
            public Manifest.Operation operation() {
                return Manifest.Operation.OVERWRITE;
            }
        };
    }

    @Test
    void aLostAnswerToTheManifestWriteIsSettledByReadingBack() throws Exception {
        storage.loseAnswers.put("manifest", new AtomicInteger(1));
        Manifest written = commit("job-1", MergePlan.APPEND, "a", "b");

        assertThat(written.generation()).isEqualTo(1);
        assertThat(storage.manifestWrites).hasValue(1); // no second write: the read-back found it
        assertThat(commitPoint.current()).contains(written);
        assertThat(commitPoint.mayName("job-1")).isTrue();
        assertThat(commitPoint.mayName("job-2")).isFalse();
    }

    @Test
    void aWriteThatNeverArrivedIsRetriedAndAnAppendKeepsEveryPart() throws Exception {
        commit("job-1", MergePlan.APPEND, "a");
        storage.failBefore.put("manifest", new AtomicInteger(2));
        Manifest second = commit("job-2", MergePlan.APPEND, "b");

        assertThat(second.generation()).isEqualTo(2);
        assertThat(second.parts()).extracting(ManifestPart::path).containsExactly("a", "b");
        assertThat(storage.manifestWrites).hasValue(4); // 1 + 2 failed + 1
    }

    @Test
    void aLostAnswerToAClaimIsSettledByReadingTheClaim() throws Exception {
        commit("job-1", MergePlan.APPEND, "a");
        storage.loseAnswers.put("claim-2", new AtomicInteger(1));
        Manifest second = commit("job-2", MergePlan.APPEND, "b");

        assertThat(second.generation()).isEqualTo(2);
        assertThat(new String(storage.objects.get("claim-2"), StandardCharsets.UTF_8)).startsWith("job-2\n");
    }

    @Test
    void aWriteThatKeepsFailingFailsTheJobWithThePreviousGenerationIntact() throws Exception {
        commit("job-1", MergePlan.APPEND, "a");
        storage.failBefore.put("manifest", new AtomicInteger(100));

        assertThatThrownBy(() -> commit("job-2", MergePlan.APPEND, "b"))
                .hasMessageContaining("job job-2 could not commit mem://dataset")
                .hasMessageContaining("the dataset stays at generation 1");
        assertThat(commitPoint.current().orElseThrow().generation()).isEqualTo(1);
        assertThat(commitPoint.mayName("job-2")).isFalse();
    }

    @Test
    void aClaimOfAJobThatDiedIsSkippedOnceItIsOlderThanTheTimeout() throws Exception {
        commit("job-1", MergePlan.APPEND, "a");
        // A job claimed generation 2 and died before writing its manifest.
        storage.objects.put("claim-2", new GenerationClaim("dead-job", T0.minusSeconds(3600)).encode());

        Manifest next = commit("job-2", MergePlan.APPEND, "b");

        assertThat(next.generation()).isEqualTo(3);
        assertThat(next.parts()).extracting(ManifestPart::path).containsExactly("a", "b");
        assertThat(next.history()).extracting(h -> h.generation()).containsExactly(1L, 3L);
    }

    @Test
    void aLiveClaimIsWaitedForAndMergedWith() throws Exception {
        commit("job-1", MergePlan.APPEND, "a");
        storage.objects.put("claim-2", new GenerationClaim("other", clock.instant()).encode());
        Thread other = new Thread(() -> {
            try {
                Thread.sleep(300);
                Manifest base = commitPoint.current().orElseThrow();
                List<ManifestPart> all = new ArrayList<>(base.parts());
                all.addAll(parts("other", "o"));
                storage.objects.put("manifest", CommitPoint.encode(new Manifest(1, "t", "other", 2,
                        Manifest.Operation.APPEND, T0, T0, all)));
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        other.start();
        Manifest mine = commit("job-2", MergePlan.APPEND, "b");
        other.join();

        assertThat(mine.generation()).isEqualTo(3);
        assertThat(mine.parts()).extracting(ManifestPart::path).containsExactly("a", "o", "b");
    }

    @Test
    void overwriteKeepsReplacedPartsAsRemovedForTimeTravelUntilRetentionPasses() throws Exception {
        commit("job-1", MergePlan.APPEND, "a", "b");
        clock.advance(Duration.ofHours(1));
        commit("job-2", MergePlan.APPEND, "c");
        clock.advance(Duration.ofHours(1));
        Manifest third = commit("job-3", overwrite(), "d");

        assertThat(third.operation()).isEqualTo(Manifest.Operation.OVERWRITE);
        assertThat(third.parts()).extracting(ManifestPart::path).containsExactly("d");
        assertThat(third.removed()).extracting(r -> r.part().path()).containsExactly("a", "b", "c");
        assertThat(third.partsAt(1)).extracting(ManifestPart::path).containsExactly("a", "b");
        assertThat(third.partsAt(2)).extracting(ManifestPart::path).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(third.generationAt(T0.plus(Duration.ofMinutes(90)))).hasValue(2);
        assertThat(third.history()).extracting(h -> h.records()).containsExactly(2L, 3L, 1L);
        Changes changes = Changes.between(third, 1, 3);
        assertThat(changes.added()).extracting(ManifestPart::path).containsExactly("c", "d");
        assertThat(changes.removed()).extracting(r -> r.part().path()).containsExactly("a", "b", "c");

        clock.advance(Duration.ofDays(8));
        Manifest fourth = commit("job-4", MergePlan.APPEND, "e");
        assertThat(fourth.removed()).isEmpty();
        assertThat(fourth.restorableFrom()).isEqualTo(3);
        assertThat(fourth.partsAt(3)).extracting(ManifestPart::path).containsExactly("d");
        assertThatThrownBy(() -> fourth.partsAt(2)).hasMessageContaining("generations 3 to 4");
    }

    @Test
    void aManifestOfAnOlderWriterIsTakenOverWithItsPartsCountedAsItsGeneration() throws Exception {
        Manifest legacy = new Manifest(1, "stork 0.0.9", "old", 5, Manifest.Operation.APPEND, T0, T0,
                parts("old", "x", "y"));
        storage.objects.put("manifest", CommitPoint.encode(legacy));

        Manifest next = commit("job-6", overwrite(), "z");

        assertThat(next.generation()).isEqualTo(6);
        assertThat(next.restorableFrom()).isEqualTo(5);
        assertThat(next.partsAt(5)).extracting(ManifestPart::path).containsExactly("x", "y");
        assertThat(next.history()).extracting(h -> h.generation()).containsExactly(5L, 6L);
    }

    @Test
    void aNewDatasetCreatedByAnotherJobWhileThisOneRanIsAConflict() throws Exception {
        commit("job-1", MergePlan.APPEND, "a");
        assertThatThrownBy(() -> commitPoint.commit(new CommitPoint.Request("job-2", "test", parts("job-2", "b"),
                MergePlan.APPEND, true, T0)))
                .isInstanceOf(ConcurrentCommitException.class).hasMessageContaining("was created by another job");
    }

    @Test
    void withoutCreateGuaranteesAnAppendWritesTheNextGenerationWithoutAClaim() throws Exception {
        storage.guarantee = DatasetStorage.CreateGuarantee.NONE;
        commit("job-1", MergePlan.APPEND, "a");
        Manifest second = commit("job-2", MergePlan.APPEND, "b");
        assertThat(second.generation()).isEqualTo(2);
        assertThat(storage.objects).doesNotContainKey("claim-2");
    }

    @Test
    void plainFilesOfADirectoryWithoutManifestAreAdopted() throws Exception {
        storage.plain.addAll(parts("adopted", "old.csv"));
        Manifest first = commit("job-1", MergePlan.APPEND, "new.csv");
        assertThat(first.parts()).extracting(ManifestPart::path).containsExactly("old.csv", "new.csv");
        assertThat(first.operation()).isEqualTo(Manifest.Operation.APPEND);
    }

    /** A clock the test moves. */
    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant start) {
            now = start;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}

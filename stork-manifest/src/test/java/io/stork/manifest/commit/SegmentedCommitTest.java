package io.stork.manifest.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.CorruptManifestException;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.RemovedPart;
import io.stork.manifest.segment.Segments;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Commits that seal parts into segments (a limit of 3 parts listed in the manifest itself). */
class SegmentedCommitTest {

    private final MemoryDatasetStorage storage = new MemoryDatasetStorage();
    private final CommitPointTest.MutableClock clock =
            new CommitPointTest.MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
    private final CommitPoint commitPoint = new CommitPoint(storage,
            new CommitSettings(Duration.ofDays(7), Duration.ZERO, Duration.ofSeconds(60), clock, 3));

    private Manifest commit(String job, MergePlan plan, String... paths) throws Exception {
        List<ManifestPart> parts = new ArrayList<>();
        for (String path : paths) {
            parts.add(new ManifestPart("k=" + path + "/part-" + path, 100 + path.length(), "etag-" + path, job,
                    parts.size(), 7, 1234, (long) path.hashCode(),
                    "{\"v\":1,\"rows\":1,\"columns\":{\"x\":{\"type\":\"string\",\"nulls\":0,\"min\":\"" + path
                            + "\",\"max\":\"" + path + "\"}}}", 0, 8));
        }
        clock.advance(Duration.ofSeconds(1));
        return commitPoint.commit(new CommitPoint.Request(job, "test", parts, plan, false, clock.instant()));
    }

    private static final MergePlan OVERWRITE = new MergePlan() {
        @Override
        public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
            return List.of();
        }

        @Override
        public Manifest.Operation operation() {
            return Manifest.Operation.OVERWRITE;
        }
    };

    private static List<String> paths(List<ManifestPart> parts) {
        return parts.stream().map(ManifestPart::path).toList();
    }

    private String manifestJson() {
        return new String(storage.objects.get("manifest"), StandardCharsets.UTF_8);
    }

    @Test
    void partsPastTheLimitMoveIntoSegmentsThatLaterGenerationsKeepNaming() throws Exception {
        Manifest first = commit("job-1", MergePlan.APPEND, "a", "b", "c", "d", "e");
        assertThat(storage.objects).containsKey("segment-1-job-1-0.seg");
        assertThat(manifestJson()).contains("\"version\":2").contains("\"segments\":[")
                .doesNotContain("part-a"); // the parts are in the segment, not repeated
        Manifest read = commitPoint.current().orElseThrow();
        assertThat(read.parts()).isEqualTo(first.parts());
        assertThat(read.parts()).allSatisfy(p -> assertThat(p.segment()).isNotNull());
        ManifestPart a = read.parts().get(0);
        assertThat(a).extracting(ManifestPart::length, ManifestPart::etag, ManifestPart::jobId, ManifestPart::attempt,
                ManifestPart::modifiedAt, ManifestPart::records, ManifestPart::addedIn, ManifestPart::tail)
                .containsExactly(101L, "etag-a", "job-1", 7L, 1234L, (long) "a".hashCode(), 1L, 8);
        assertThat(a.statsJson()).contains("\"min\":\"a\""); // kept as JSON: no block codec in this module

        // Below the limit, an append lists its parts itself and names the same segment.
        commit("job-2", MergePlan.APPEND, "f", "g");
        Manifest second = commitPoint.current().orElseThrow();
        assertThat(paths(second.parts())).containsExactly("k=a/part-a", "k=b/part-b", "k=c/part-c", "k=d/part-d",
                "k=e/part-e", "k=f/part-f", "k=g/part-g");
        assertThat(Segments.named(second)).hasSize(1);
        assertThat(storage.objects.keySet().stream().filter(k -> k.startsWith("segment-"))).hasSize(1);

        // An overwrite drops them all: the segment's parts become a run of removed ordinals.
        commit("job-3", OVERWRITE, "h");
        Manifest third = commitPoint.current().orElseThrow();
        assertThat(paths(third.parts())).containsExactly("k=h/part-h");
        assertThat(third.removed()).extracting(r -> r.part().path()).containsExactlyInAnyOrder("k=a/part-a",
                "k=b/part-b", "k=c/part-c", "k=d/part-d", "k=e/part-e", "k=f/part-f", "k=g/part-g");
        assertThat(third.removed()).extracting(RemovedPart::removedIn).containsOnly(3L);
        assertThat(manifestJson()).contains("\"removed\":[[0,4,3,");
        // Time travel rebuilds every earlier generation from segments and removals.
        assertThat(paths(third.partsAt(1))).containsExactlyElementsOf(paths(first.parts()));
        assertThat(paths(third.partsAt(2))).containsExactlyElementsOf(paths(second.parts()));

        // Past the retention the removed parts go; a segment none of whose parts is named is not named.
        clock.advance(Duration.ofDays(8));
        commit("job-4", MergePlan.APPEND, "i");
        Manifest fourth = commitPoint.current().orElseThrow();
        assertThat(paths(fourth.parts())).containsExactly("k=h/part-h", "k=i/part-i");
        assertThat(fourth.removed()).isEmpty();
        assertThat(Segments.named(fourth)).isEmpty();
        assertThat(manifestJson()).contains("\"version\":1").doesNotContain("segments");
    }

    @Test
    void partsOfASegmentDroppedOneByOneAreRunsOfDroppedOrdinals() throws Exception {
        commit("job-1", MergePlan.APPEND, "a", "b", "c", "d");
        MergePlan dropBAndC = new MergePlan() {
            @Override
            public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
                return previous.stream().filter(p -> !p.path().contains("part-b") && !p.path().contains("part-c"))
                        .toList();
            }

            @Override
            public Manifest.Operation operation() {
                return Manifest.Operation.DYNAMIC_PARTITION_OVERWRITE;
            }
        };
        commit("job-2", dropBAndC, "x");
        clock.advance(Duration.ofDays(8));
        commit("job-3", MergePlan.APPEND, "y");
        Manifest read = commitPoint.current().orElseThrow();
        assertThat(paths(read.parts())).containsExactly("k=a/part-a", "k=d/part-d", "k=x/part-x", "k=y/part-y");
        assertThat(manifestJson()).contains("\"dropped\":[[1,2]]");
        assertThat(read.restorableFrom()).isEqualTo(2);
    }

    @Test
    void aMissingOrDamagedSegmentMakesTheManifestCorruptNeverPartial() throws Exception {
        commit("job-1", MergePlan.APPEND, "a", "b", "c", "d");
        byte[] segment = storage.objects.get("segment-1-job-1-0.seg");

        storage.objects.put("segment-1-job-1-0.seg", java.util.Arrays.copyOf(segment, segment.length - 9));
        assertThatThrownBy(storage::readManifest).isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("1-job-1-0.seg");

        byte[] flipped = segment.clone();
        flipped[flipped.length / 2] ^= 0x55;
        storage.objects.put("segment-1-job-1-0.seg", flipped);
        assertThatThrownBy(storage::readManifest).isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("1-job-1-0.seg");

        storage.objects.remove("segment-1-job-1-0.seg");
        assertThatThrownBy(storage::readManifest).isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("missing");
    }

    @Test
    void aLargeWriteIsSealedIntoSeveralSegmentsAndSmallDatasetsNeverHaveOne() throws Exception {
        CommitPoint defaults = new CommitPoint(storage, new CommitSettings(Duration.ofDays(7), Duration.ZERO,
                Duration.ofSeconds(60), clock));
        List<ManifestPart> parts = new ArrayList<>();
        for (int i = 0; i < CommitSettings.DEFAULT_INLINE_PARTS; i++) {
            parts.add(new ManifestPart("part-" + i, 1, null, "job-1", i, 0, 0, null, null));
        }
        defaults.commit(new CommitPoint.Request("job-1", "test", parts, MergePlan.APPEND, false, clock.instant()));
        assertThat(manifestJson()).contains("\"version\":1");
        assertThat(storage.objects.keySet()).noneMatch(k -> k.startsWith("segment-"));
    }
}

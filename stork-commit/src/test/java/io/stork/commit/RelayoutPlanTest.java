package io.stork.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.commit.ConcurrentCommitException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelayoutPlanTest {

    private static ManifestPart part(String path, String job) {
        return new ManifestPart(path, 100, "etag-" + path, job, 0, 0, 0, 1L, null);
    }

    private final List<ManifestPart> read = List.of(part("a", "j1"), part("b", "j1"));
    private final RelayoutPlan plan = RelayoutPlan.of(3, read);

    @Test
    void replacesExactlyThePartsItRead_keepingAPartAppendedMeanwhile() {
        ManifestPart appended = part("c", "j2");
        List<ManifestPart> written = List.of(part("r0", "relayout"), part("r1", "relayout"));
        assertThat(plan.kept(List.of(read.get(0), appended, read.get(1)), written)).containsExactly(appended);
        assertThat(plan.kept(read, written)).isEmpty();
        assertThat(plan.operation()).isEqualTo(Manifest.Operation.RELAYOUT);
    }

    @Test
    void aPartItReadGoneSinceFailsTheCommit_namingThePart() {
        assertThatThrownBy(() -> plan.kept(List.of(read.get(0), part("c", "j2")), List.of()))
                .isInstanceOf(UncheckedIOException.class)
                .cause().isInstanceOf(ConcurrentCommitException.class)
                .hasMessageContaining("generation 3").hasMessageContaining("part b was removed by a later commit")
                .hasMessageContaining("nothing was committed");
    }
}

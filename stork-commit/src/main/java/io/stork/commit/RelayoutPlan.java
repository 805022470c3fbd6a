package io.stork.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.commit.ConcurrentCommitException;
import io.stork.manifest.commit.MergePlan;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The commit of a relayout: a job that read generation {@code source} and wrote its rows again in a new
 * layout. The new generation names the job's parts instead of exactly the parts it read; parts committed
 * since it read (a concurrent append) are kept, so they are neither lost nor duplicated. If a part it read
 * is gone (an overwrite, a restore or another relayout committed since), its rows may already be elsewhere
 * or meant to be gone: the relayout fails and commits nothing.
 */
record RelayoutPlan(long source, Set<String> replaced) implements MergePlan {

    /** The write option (in the job's configuration) naming the generation a relayout job read. */
    static final String GENERATION_OPTION = "stork.relayout.generation";

    RelayoutPlan {
        replaced = Set.copyOf(replaced);
    }

    static RelayoutPlan of(long source, List<ManifestPart> parts) {
        Set<String> paths = new HashSet<>();
        parts.forEach(p -> paths.add(p.path()));
        return new RelayoutPlan(source, paths);
    }

    @Override
    public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
        Set<String> present = new HashSet<>();
        previous.forEach(p -> present.add(p.path()));
        for (String path : replaced) {
            if (!present.contains(path)) {
                throw new UncheckedIOException(new ConcurrentCommitException("the relayout of generation " + source
                        + " cannot commit: its part " + path + " was removed by a later commit (an overwrite, a "
                        + "restore or another relayout); nothing was committed: run the relayout again"));
            }
        }
        List<ManifestPart> kept = new ArrayList<>(previous.size());
        for (ManifestPart part : previous) {
            if (!replaced.contains(part.path())) {
                kept.add(part);
            }
        }
        return kept;
    }

    @Override
    public Manifest.Operation operation() {
        return Manifest.Operation.RELAYOUT;
    }
}

package io.stork.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.commit.MergePlan;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a job's commit replaces of the dataset's previous parts. Spark asks the protocol to delete what
 * an overwrite replaces before the job runs ({@code deleteWithJob}); Stork records the request instead and
 * applies it in the new manifest, so readers see the old generation until the new one commits, and a
 * failed overwrite loses nothing.
 *
 * @param everything        replace all previous parts (overwrite of the whole dataset)
 * @param directories       replace the previous parts under these relative directories (static partitions)
 * @param writtenPartitions replace the previous parts in every directory the job wrote to (dynamic
 *                          partition overwrite)
 */
record ReplacePlan(boolean everything, Set<String> directories, boolean writtenPartitions)
        implements MergePlan, Serializable {

    static final ReplacePlan NOTHING = new ReplacePlan(false, Set.of(), false);

    ReplacePlan {
        directories = Set.copyOf(directories);
    }

    ReplacePlan withEverything() {
        return new ReplacePlan(true, directories, writtenPartitions);
    }

    ReplacePlan withDirectory(String relativeDirectory) {
        Set<String> more = new HashSet<>(directories);
        more.add(relativeDirectory);
        return new ReplacePlan(everything, more, writtenPartitions);
    }

    ReplacePlan withWrittenPartitions() {
        return new ReplacePlan(everything, directories, true);
    }

    boolean replacesAnything() {
        return everything || !directories.isEmpty() || writtenPartitions;
    }

    @Override
    public Manifest.Operation operation() {
        if (everything || !directories.isEmpty()) {
            return Manifest.Operation.OVERWRITE;
        }
        return writtenPartitions ? Manifest.Operation.DYNAMIC_PARTITION_OVERWRITE : Manifest.Operation.APPEND;
    }

    /** The previous parts that survive this job's commit. */
    @Override
    public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
        if (everything) {
            return List.of();
        }
        Set<String> writtenDirectories = new HashSet<>();
        if (writtenPartitions) {
            for (ManifestPart part : written) {
                writtenDirectories.add(part.directory());
            }
        }
        List<ManifestPart> kept = new ArrayList<>(previous.size());
        for (ManifestPart part : previous) {
            if (!writtenDirectories.contains(part.directory()) && !underReplacedDirectory(part.path())) {
                kept.add(part);
            }
        }
        return kept;
    }

    private boolean underReplacedDirectory(String path) {
        for (String directory : directories) {
            if (directory.isEmpty() || path.startsWith(directory + "/")) {
                return true;
            }
        }
        return false;
    }
}

package io.stork.commit;

import io.stork.manifest.Changes;
import io.stork.manifest.Manifest;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What commits did to a dataset since a generation, for an incremental or streaming job that polls: read
 * the manifest (one GET; nothing else), then take the parts added and removed after the generation the
 * job processed last, in commit order ({@link Changes#inCommitOrder()}), and remember the generation
 * reached. Changes older than the manifest keeps (the retention period) fail with one line: such a job
 * must start again from the current generation's parts.
 */
public final class DatasetChanges {

    private DatasetChanges() {
    }

    /** The changes after generation {@code since} (0: everything) up to the current generation. */
    public static Changes since(FileSystem fs, Path dataset, long since) throws IOException {
        Manifest manifest = new DatasetCommitter(fs, dataset, "changes").readManifest().orElseThrow(() ->
                new IOException("no Stork manifest in " + fs.makeQualified(dataset) + ": no generations to follow"));
        try {
            return Changes.between(manifest, since, manifest.generation());
        } catch (IllegalArgumentException e) {
            throw new IOException(fs.makeQualified(dataset) + ": " + e.getMessage());
        }
    }
}

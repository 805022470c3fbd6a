package io.stork.commit;

import io.stork.manifest.ManifestPart;
import java.io.Serializable;
import java.util.List;

/**
 * What a committed task attempt reports to the driver: its parts, as the manifest will name them, and the
 * attempt itself (the stage and Spark's attempt id), so that the driver can tell the attempts that lost.
 */
record TaskOutput(List<ManifestPart> parts, int stage, long attempt) implements Serializable {

    TaskOutput {
        parts = List.copyOf(parts);
    }
}

package io.stork.commit;

import io.stork.manifest.ManifestPart;
import java.io.Serializable;
import java.util.List;

/** What a committed task attempt reports to the driver: its parts, as the manifest will name them. */
record TaskOutput(List<ManifestPart> parts) implements Serializable {

    TaskOutput {
        parts = List.copyOf(parts);
    }
}

package io.stork.manifest;

import java.time.Instant;
import java.util.Objects;

/**
 * A part that an earlier generation named and a later one dropped (overwrite, partition overwrite,
 * restore). The object stays in the store for the retention period, so queries pinned to an older
 * generation still read it and time travel can return to it; vacuum deletes it after that.
 *
 * @param part      the part as it was committed (its {@link ManifestPart#addedIn()} included)
 * @param removedIn the first generation that no longer names it
 * @param removedAt when that generation was committed
 */
public record RemovedPart(ManifestPart part, long removedIn, Instant removedAt) {

    public RemovedPart {
        Objects.requireNonNull(part, "part");
        Objects.requireNonNull(removedAt, "removedAt");
        if (removedIn <= part.addedIn()) {
            throw new IllegalArgumentException("part " + part.path() + " removed in generation " + removedIn
                    + ", not after it was added (" + part.addedIn() + ")");
        }
    }

    /** Whether generation {@code generation} named this part. */
    public boolean namedBy(long generation) {
        return part.addedIn() <= generation && generation < removedIn;
    }
}

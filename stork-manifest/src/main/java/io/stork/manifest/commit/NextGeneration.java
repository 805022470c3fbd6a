package io.stork.manifest.commit;

import io.stork.manifest.GenerationInfo;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.RemovedPart;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Builds generation n+1 from generation n: the current parts (kept + written), the removed parts still
 * within retention (those n+1 drops join them), and the history. One object keeps it all, so a reader of
 * the current generation needs one GET and a reader of an older one the same GET (docs/manifest-format.md).
 */
final class NextGeneration {

    private NextGeneration() {
    }

    /**
     * @param previous      the previous manifest, if the dataset had one
     * @param previousParts the previous generation's parts (or the adopted plain files of a directory
     *                      without manifest)
     * @param kept          those of {@code previousParts} the new generation keeps
     * @param written       the parts the committing job adds
     * @param properties    dataset properties the job sets (over the previous manifest's; empty removes)
     */
    static Manifest build(Optional<Manifest> previous, List<ManifestPart> previousParts, List<ManifestPart> kept,
                          List<ManifestPart> written, Manifest.Operation operation, long generation, String writer,
                          String jobId, Instant createdAt, Instant now, Duration retention,
                          java.util.Map<String, String> properties) {
        long previousGeneration = previous.map(Manifest::generation).orElse(0L);
        // Parts of a manifest written before generations were recorded count as added in that generation;
        // adopted files as added now.
        long unknownAddedIn = previous.isPresent() ? previousGeneration : generation;
        Set<String> keptPaths = new HashSet<>();
        List<ManifestPart> parts = new ArrayList<>(kept.size() + written.size());
        for (ManifestPart part : kept) {
            keptPaths.add(part.path());
            parts.add(part.addedIn() > 0 ? part : part.withAddedIn(unknownAddedIn));
        }
        for (ManifestPart part : written) {
            parts.add(part.withAddedIn(generation));
        }

        Instant expiry = now.minus(retention);
        List<RemovedPart> removed = new ArrayList<>();
        long restorableFrom = previous.map(m -> m.history().isEmpty() ? previousGeneration : m.restorableFrom())
                .orElse(generation);
        for (RemovedPart r : previous.map(Manifest::removed).orElse(List.of())) {
            if (r.removedAt().isBefore(expiry)) {
                // Generations before r.removedIn() named it; without it they can no longer be listed.
                restorableFrom = Math.max(restorableFrom, r.removedIn());
            } else {
                removed.add(r);
            }
        }
        int removedNow = 0;
        for (ManifestPart part : previousParts) {
            if (!keptPaths.contains(part.path())) {
                // Adopted files never belonged to a generation: addedIn 0 keeps them out of time travel
                // while vacuum still finds them once retention has passed.
                long addedIn = part.addedIn() > 0 ? part.addedIn() : previous.isPresent() ? unknownAddedIn : 0;
                removed.add(new RemovedPart(part.withAddedIn(Math.min(addedIn, generation - 1)), generation, now));
                removedNow++;
            }
        }
        if (retention.isZero()) {
            // No retention (a file system whose readers list instead of reading the manifest): the committer
            // deletes what this generation dropped at once, so no earlier generation stays readable.
            restorableFrom = generation;
        }
        restorableFrom = Math.min(restorableFrom, generation);

        List<GenerationInfo> history = new ArrayList<>();
        if (previous.isPresent() && previous.get().history().isEmpty()) {
            Manifest m = previous.get();
            history.add(new GenerationInfo(m.generation(), m.operation(), m.jobId(), m.committedAt(), m.parts().size(),
                    m.totalLength(), records(m.parts()), m.parts().size(), 0));
        } else {
            previous.ifPresent(m -> history.addAll(m.history()));
        }
        final long oldest = restorableFrom;
        history.removeIf(info -> info.generation() < oldest && info.committedAt().isBefore(expiry));
        long bytes = 0;
        for (ManifestPart part : parts) {
            bytes += part.length();
        }
        history.add(new GenerationInfo(generation, operation, jobId, now, parts.size(), bytes, records(parts),
                written.size(), removedNow));
        io.stork.manifest.DatasetSchema schema = io.stork.manifest.SchemaEvolution.next(previous.orElse(null),
                io.stork.manifest.DatasetSchema.ofJobProperties(properties), operation, !kept.isEmpty(),
                !written.isEmpty(), generation);
        return new Manifest(1, writer, jobId, generation, operation, createdAt, now, parts,
                removed, history, restorableFrom, mergedProperties(previous, properties), schema);
    }

    /** The previous generation's properties with the job's over them (an empty value removes one). */
    static java.util.Map<String, String> mergedProperties(Optional<Manifest> previous,
                                                         java.util.Map<String, String> properties) {
        java.util.Map<String, String> merged = new java.util.TreeMap<>(previous.map(Manifest::properties)
                .orElse(java.util.Map.of()));
        properties.forEach((k, v) -> {
            if (io.stork.manifest.DatasetSchema.isHandOver(k)) {
                return; // the schema is recorded as evolved below, not as a property
            }
            if (v.isEmpty()) {
                merged.remove(k); // an empty value is how a job removes a property
            } else {
                merged.put(k, v);
            }
        });
        return merged;
    }

    private static Long records(List<ManifestPart> parts) {
        long total = 0;
        for (ManifestPart part : parts) {
            if (part.records() == null) {
                return null;
            }
            total += part.records();
        }
        return total;
    }
}

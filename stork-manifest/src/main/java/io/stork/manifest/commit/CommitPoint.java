package io.stork.manifest.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one commit point of every Stork committer (Spark SQL protocol, Hadoop committer, classic-committer
 * emulation): read the dataset's current generation, merge the job's parts into it, claim the next
 * generation where the store can arbitrate, and write the manifest, settling every uncertain outcome by
 * reading back (docs/commit-protocol.md, "The commit point").
 *
 * <p>A write whose answer was lost may or may not have been applied. The manifest names its job, and a
 * claim holds its job's id, so reading back tells which: the job then reports what is true, committed or
 * failed with the previous generation intact, never a commit it did not make or a failure of one it made.
 */
public final class CommitPoint {

    private static final Logger LOG = LoggerFactory.getLogger(CommitPoint.class);
    private static final int MAX_MERGE_ROUNDS = 10;
    private static final int MAX_WRITE_TRIES = 4;
    private static final Duration WRITE_BACKOFF = Duration.ofMillis(200);

    private final DatasetStorage storage;
    private final CommitSettings settings;
    private final DatasetSettingsRule datasetRule;

    public CommitPoint(DatasetStorage storage, CommitSettings settings) {
        this(storage, settings, DatasetSettingsRule.NONE);
    }

    /** As {@link #CommitPoint(DatasetStorage, CommitSettings)}, each commit under its dataset's own properties. */
    public CommitPoint(DatasetStorage storage, CommitSettings settings, DatasetSettingsRule datasetRule) {
        this.storage = storage;
        this.settings = settings;
        this.datasetRule = datasetRule;
    }

    /**
     * What a job commits.
     *
     * @param knownEmpty    the output was seen empty when the job started: the first round reads nothing
     * @param knownPrevious the current manifest as the caller read it just now, or null: the first round
     *                      uses it instead of reading again (a conflict makes later rounds read)
     * @param properties    dataset properties the job sets; the others are carried from the previous manifest
     */
    public record Request(String jobId, String writer, List<ManifestPart> written, MergePlan plan, boolean knownEmpty,
                          Instant createdAt, Manifest knownPrevious, java.util.Map<String, String> properties,
                          java.util.Set<String> fencedAttempts) {

        public Request {
            written = List.copyOf(written);
            properties = properties == null ? java.util.Map.of() : java.util.Map.copyOf(properties);
            fencedAttempts = fencedAttempts == null ? java.util.Set.of() : java.util.Set.copyOf(fencedAttempts);
        }

        public Request(String jobId, String writer, List<ManifestPart> written, MergePlan plan, boolean knownEmpty,
                       Instant createdAt, Manifest knownPrevious, java.util.Map<String, String> properties) {
            this(jobId, writer, written, plan, knownEmpty, createdAt, knownPrevious, properties, java.util.Set.of());
        }

        public Request(String jobId, String writer, List<ManifestPart> written, MergePlan plan, boolean knownEmpty,
                       Instant createdAt, Manifest knownPrevious) {
            this(jobId, writer, written, plan, knownEmpty, createdAt, knownPrevious, java.util.Map.of());
        }

        public Request(String jobId, String writer, List<ManifestPart> written, MergePlan plan, boolean knownEmpty,
                       Instant createdAt) {
            this(jobId, writer, written, plan, knownEmpty, createdAt, null);
        }

        /** A maintenance commit: the same parts, and the task {@code attempts} fenced ({@link Fences}). */
        public static Request fence(String jobId, String writer, java.util.Set<String> attempts) {
            return fence(jobId, writer, attempts, null);
        }

        /** As {@link #fence(String, String, java.util.Set)}, building on the manifest the caller just read. */
        public static Request fence(String jobId, String writer, java.util.Set<String> attempts, Manifest knownPrevious) {
            return new Request(jobId, writer, List.of(), MergePlan.MAINTENANCE, false, Instant.now(), knownPrevious,
                    java.util.Map.of(), attempts);
        }
    }

    public CommitSettings settings() {
        return settings;
    }

    /** The current manifest (1 GET). */
    public Optional<Manifest> current() throws IOException {
        return storage.readManifest();
    }

    /**
     * Whether the dataset's current manifest was written by {@code jobId} or names a part of it: then its
     * parts must not be deleted, whatever the job was told about its commit. An unreadable manifest counts
     * as naming it (deleting is never the safe guess).
     */
    public boolean mayName(String jobId) {
        try {
            Optional<Manifest> manifest = storage.readManifest();
            if (manifest.isEmpty()) {
                return false;
            }
            if (manifest.get().jobId().equals(jobId)) {
                return true;
            }
            for (ManifestPart part : manifest.get().parts()) {
                if (part.jobId().equals(jobId)) {
                    return true;
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: could not read the manifest to check whether job {} committed ({})", storage.location(),
                    jobId, e.toString());
            return true;
        }
    }

    /** Commits the request: returns the manifest written, or fails with the dataset as it was. */
    public Manifest commit(Request request) throws IOException {
        boolean mayBeEmpty = request.knownEmpty();
        long skipThrough = 0; // generations claimed by jobs that died: never written, numbers skipped
        for (int round = 1; ; round++) {
            Optional<Manifest> previous = mayBeEmpty ? Optional.empty()
                    : round == 1 && request.knownPrevious() != null ? Optional.of(request.knownPrevious())
                    : storage.readManifest();
            if (previous.isPresent() && previous.get().jobId().equals(request.jobId())) {
                return previous.get(); // an earlier try of this commit went through
            }
            if (previous.isPresent()) {
                Optional<ManifestPart> gone = Fences.firstFenced(previous.get(), request.written());
                if (gone.isPresent()) {
                    throw fenced(request.jobId(), previous.get(), gone.get());
                }
            }
            List<ManifestPart> previousParts = previous.isPresent() ? previous.get().parts()
                    : mayBeEmpty ? List.of() : storage.plainFiles();
            List<ManifestPart> kept = request.plan().kept(previousParts, request.written());
            long generation = Math.max(previous.map(Manifest::generation).orElse(0L), skipThrough) + 1;
            Manifest.Operation operation = previous.isEmpty() && previousParts.isEmpty()
                    ? Manifest.Operation.CREATE : request.plan().operation();
            Instant now = settings.clock().instant();
            java.util.Map<String, String> properties = request.properties();
            // The generation being committed carries the dataset's properties (the job's over the previous
            // ones): a retention the dataset keeps applies whatever this writer's session says.
            CommitSettings own = datasetRule.apply(settings, NextGeneration.mergedProperties(previous, properties));
            if (!request.fencedAttempts().isEmpty()) {
                properties = new java.util.HashMap<>(properties);
                properties.put(Fences.PROPERTY, Fences.merge(previous.orElse(null), request.fencedAttempts(), now,
                        Fences.lifetime(own.retention())));
            }
            Manifest manifest = NextGeneration.build(previous, previousParts, kept, request.written(), operation,
                    generation, request.writer(), request.jobId(), request.createdAt(), now, own.retention(),
                    properties);
            manifest = io.stork.manifest.segment.Segments.seal(manifest, own.inlineParts(), storage::writeSegment);
            byte[] json = encode(manifest);
            try {
                if (generation == 1 || previous.isEmpty() && storage.createGuarantee() != DatasetStorage.CreateGuarantee.NONE) {
                    writeSettled(manifest, json, true, null);
                } else {
                    Instant claimed = storage.createGuarantee() == DatasetStorage.CreateGuarantee.NONE ? null
                            : claim(generation, request.jobId());
                    writeSettled(manifest, json, false, claimed);
                }
                return manifest;
            } catch (CreateConflictException conflict) {
                if (request.knownEmpty() && previous.isEmpty()) {
                    Optional<Manifest> created = readBack(); // only on this failure path: say why, if we know
                    Optional<ManifestPart> gone = created.flatMap(m -> Fences.firstFenced(m, request.written()));
                    if (gone.isPresent()) {
                        throw fenced(request.jobId(), created.get(), gone.get());
                    }
                    throw new ConcurrentCommitException("output " + storage.location() + " was created by another job "
                            + "while job " + request.jobId() + " ran (it was empty when the job started); this "
                            + "job's parts were not committed");
                }
                if (round >= MAX_MERGE_ROUNDS) {
                    throw new ConcurrentCommitException("dataset " + storage.location() + ": generation " + generation
                            + " was committed by another job " + round + " times in a row; job " + request.jobId()
                            + " gave up (its parts are not committed)");
                }
                LOG.info("{}: generation {} was taken by another job; merging again", storage.location(), generation);
                if (awaitGeneration(generation)) {
                    skipThrough = generation;
                }
                pause(ThreadLocalRandom.current().nextLong(200)); // out of lockstep with the other job
                mayBeEmpty = false;
            }
        }
    }

    private FencedJobException fenced(String jobId, Manifest current, ManifestPart gone) {
        String attempt = io.stork.manifest.PartNames.attemptOf(io.stork.manifest.PartNames.fileName(gone.path()))
                .orElse("?");
        return new FencedJobException("job " + jobId + " cannot commit " + storage.location() + ": its part "
                + gone.path() + " was deleted by maintenance (vacuum or clean) at " + Fences.of(current).get(attempt)
                + " before the job committed; the dataset stays at generation " + current.generation()
                + " (run the job again; see fs.stork.maintenance.floor)");
    }

    /**
     * Writes the manifest, settling lost answers by reading back. {@code claimedAt}: when this job's claim
     * on the generation was taken; past half the claim timeout the job stops trying, since others may
     * then take the claim for a dead job's.
     */
    private void writeSettled(Manifest manifest, byte[] json, boolean createOnly, Instant claimedAt) throws IOException {
        IOException last = null;
        for (int attempt = 1; attempt <= MAX_WRITE_TRIES; attempt++) {
            if (claimedAt != null && Duration.between(claimedAt, settings.clock().instant())
                    .compareTo(settings.claimTimeout().dividedBy(2)) > 0) {
                break;
            }
            try {
                storage.writeManifest(json, createOnly);
                return;
            } catch (CreateConflictException conflict) {
                if (attempt > 1 && isOurs(readBack(), manifest)) {
                    return; // the earlier try had created it
                }
                throw conflict;
            } catch (IOException e) {
                last = e;
                Optional<Manifest> stored = readBack();
                if (isOurs(stored, manifest)) {
                    LOG.info("{}: the answer to the manifest write of generation {} was lost; read back, it is "
                            + "committed", storage.location(), manifest.generation());
                    return;
                }
                LOG.warn("{}: writing the manifest of generation {} failed ({}); try {} of {}", storage.location(),
                        manifest.generation(), e.toString(), attempt, MAX_WRITE_TRIES);
                pause(WRITE_BACKOFF.toMillis() * attempt);
            }
        }
        Optional<Manifest> stored = readBack();
        if (isOurs(stored, manifest)) {
            return;
        }
        throw new IOException("job " + manifest.jobId() + " could not commit " + storage.location()
                + ": the manifest of generation " + manifest.generation() + " was not written"
                + (last == null ? " in time after its claim" : " (" + last.getMessage() + ")")
                + "; the dataset stays at " + stored.map(m -> "generation " + m.generation()).orElse("no generation"),
                last);
    }

    private static boolean isOurs(Optional<Manifest> stored, Manifest manifest) {
        return stored.isPresent() && stored.get().jobId().equals(manifest.jobId())
                && stored.get().generation() == manifest.generation();
    }

    /** Reads the manifest back after an uncertain write; a read that fails too counts as "unknown, not ours". */
    private Optional<Manifest> readBack() throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return storage.readManifest();
            } catch (io.stork.manifest.CorruptManifestException e) {
                throw e;
            } catch (IOException e) {
                if (attempt >= MAX_WRITE_TRIES) {
                    LOG.warn("{}: could not read the manifest back ({})", storage.location(), e.toString());
                    return Optional.empty();
                }
                pause(WRITE_BACKOFF.toMillis() * attempt);
            }
        }
    }

    /**
     * Claims generation {@code generation} for the job, or fails with {@link CreateConflictException}.
     * Where the store checks creates per request, two creates in flight at once can both pass, the later
     * content surviving: the claim is read back after {@link CommitSettings#claimSettle()} and only the job
     * whose id survived goes on.
     */
    private Instant claim(long generation, String jobId) throws IOException {
        // Millisecond precision: the claim is compared with what reading it back decodes.
        Instant claimedAt = settings.clock().instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        GenerationClaim mine = new GenerationClaim(jobId, claimedAt);
        for (int attempt = 1; ; attempt++) {
            try {
                storage.createClaim(generation, mine.encode());
                break;
            } catch (CreateConflictException conflict) {
                Optional<GenerationClaim> holder = GenerationClaim.read(storage, generation);
                if (holder.isPresent() && holder.get().equals(mine)) {
                    break; // an earlier try of ours created it; its answer was lost
                }
                throw conflict;
            } catch (IOException uncertain) {
                Optional<GenerationClaim> holder = GenerationClaim.read(storage, generation);
                if (holder.isPresent() && holder.get().equals(mine)) {
                    break;
                }
                if (holder.isPresent()) {
                    throw new CreateConflictException(storage.location() + ": generation " + generation
                            + " was claimed by job " + holder.get().jobId(), uncertain);
                }
                if (attempt >= MAX_WRITE_TRIES) {
                    throw uncertain;
                }
                pause(WRITE_BACKOFF.toMillis() * attempt);
            }
        }
        if (storage.createGuarantee() == DatasetStorage.CreateGuarantee.PER_REQUEST) {
            pause(settings.claimSettle().toMillis());
            Optional<GenerationClaim> holder = GenerationClaim.read(storage, generation);
            if (holder.isEmpty() || !holder.get().equals(mine)) {
                throw new CreateConflictException(storage.location() + ": generation " + generation
                        + " was claimed at the same moment by job " + holder.map(GenerationClaim::jobId).orElse("?"),
                        null);
            }
        }
        return claimedAt;
    }

    /**
     * After losing generation {@code generation}: waits until its manifest appears (the other job
     * committed; merge again) or its claim is older than the claim timeout with no manifest (the other
     * job died: returns true, and the next round skips the number).
     */
    private boolean awaitGeneration(long generation) throws IOException {
        long sleep = 100;
        while (true) {
            Optional<Manifest> current = storage.readManifest();
            if (current.isPresent() && current.get().generation() >= generation) {
                return false;
            }
            Optional<GenerationClaim> claim = GenerationClaim.read(storage, generation);
            if (claim.isEmpty()) {
                return false; // a generation-1 race, or the claim was cleaned: just merge again
            }
            Instant abandonedAt = claim.get().claimedAt().plus(settings.claimTimeout());
            if (!settings.clock().instant().isBefore(abandonedAt)) {
                LOG.warn("{}: generation {} was claimed by job {} at {} and never committed; that job is taken "
                        + "for dead and the generation skipped", storage.location(), generation, claim.get().jobId(),
                        claim.get().claimedAt());
                return true;
            }
            pause(Math.min(sleep, Math.max(1, Duration.between(settings.clock().instant(), abandonedAt).toMillis())));
            sleep = Math.min(sleep * 2, 2_000);
        }
    }

    static byte[] encode(Manifest manifest) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ManifestCodec.write(manifest, out);
        return out.toByteArray();
    }

    private void pause(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted committing " + storage.location());
        }
    }
}

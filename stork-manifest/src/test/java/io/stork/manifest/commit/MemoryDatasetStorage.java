package io.stork.manifest.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Dataset storage in memory, for the commit point's unit tests: atomic creates, and faults that apply a
 * write and then lose its answer, or fail it outright. The real store's cases run in stork-spark-tests.
 */
final class MemoryDatasetStorage implements DatasetStorage {

    final Map<String, byte[]> objects = new ConcurrentHashMap<>();
    final AtomicInteger manifestWrites = new AtomicInteger();
    final AtomicInteger reads = new AtomicInteger();
    /** Writes (by name: "manifest", "claim-<n>") whose next N answers are lost after being applied. */
    final Map<String, AtomicInteger> loseAnswers = new ConcurrentHashMap<>();
    /** Writes that fail without being applied. */
    final Map<String, AtomicInteger> failBefore = new ConcurrentHashMap<>();
    final List<ManifestPart> plain = new ArrayList<>();
    CreateGuarantee guarantee = CreateGuarantee.ATOMIC;

    @Override
    public String location() {
        return "mem://dataset";
    }

    @Override
    public CreateGuarantee createGuarantee() {
        return guarantee;
    }

    @Override
    public Optional<Manifest> readManifest() throws IOException {
        reads.incrementAndGet();
        byte[] json = objects.get("manifest");
        return json == null ? Optional.empty() : ManifestCodec.readIfStork(new ByteArrayInputStream(json), "mem",
                io.stork.manifest.segment.SegmentSource.of(relative -> {
                    byte[] bytes = objects.get("segment-" + relative.substring(relative.lastIndexOf('/') + 1));
                    if (bytes == null) {
                        throw new java.io.FileNotFoundException(relative);
                    }
                    return new ByteArrayInputStream(bytes);
                }, "mem"));
    }

    @Override
    public void writeManifest(byte[] json, boolean createOnly) throws IOException {
        manifestWrites.incrementAndGet();
        write("manifest", json, createOnly);
    }

    @Override
    public void writeSegment(String name, byte[] bytes) throws IOException {
        write("segment-" + name, bytes, false);
    }

    @Override
    public void createClaim(long generation, byte[] content) throws IOException {
        write("claim-" + generation, content, true);
    }

    @Override
    public Optional<byte[]> readClaim(long generation) {
        return Optional.ofNullable(objects.get("claim-" + generation));
    }

    @Override
    public List<ManifestPart> plainFiles() {
        return List.copyOf(plain);
    }

    private synchronized void write(String name, byte[] content, boolean createOnly) throws IOException {
        if (take(failBefore, name)) {
            throw new IOException("connection reset before " + name + " reached the store");
        }
        if (createOnly && objects.containsKey(name)) {
            throw new CreateConflictException(name + " exists", null);
        }
        objects.put(name, content.clone());
        if (take(loseAnswers, name)) {
            throw new IOException("connection reset after " + name + " was stored");
        }
    }

    private static boolean take(Map<String, AtomicInteger> faults, String name) {
        AtomicInteger left = faults.get(name);
        return left != null && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}

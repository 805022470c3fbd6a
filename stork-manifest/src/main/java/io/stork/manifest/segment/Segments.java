package io.stork.manifest.segment;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Sealing: when a manifest would list more than a limit of parts itself, those parts move into new
 * segments, written before the manifest that names them. A dataset below the limit never has a segment
 * (its manifest stays version 1, and a commit stays one PUT); a write that seals adds one PUT per
 * {@link #SEGMENT_PARTS} parts it seals.
 */
public final class Segments {

    /** At most this many parts per segment: several segments decode in parallel. */
    public static final int SEGMENT_PARTS = 100_000;

    private Segments() {
    }

    /** Writes a segment's bytes as {@code <dataset>/_stork/segments/<name>}. */
    @FunctionalInterface
    public interface Writer {
        void write(String name, byte[] bytes) throws IOException;
    }

    /**
     * The manifest with its own parts sealed into segments written by {@code writer}, if it lists more than
     * {@code inlineLimit} of them; else the manifest as it is.
     */
    public static Manifest seal(Manifest manifest, int inlineLimit, Writer writer) throws IOException {
        List<Integer> inline = new ArrayList<>();
        for (int i = 0; i < manifest.parts().size(); i++) {
            if (manifest.parts().get(i).segment() == null) {
                inline.add(i);
            }
        }
        if (inline.size() <= inlineLimit) {
            return manifest;
        }
        StatisticsBlockCodec codec = StatisticsBlocks.codec().orElse(null);
        List<ManifestPart> parts = new ArrayList<>(manifest.parts());
        for (int from = 0, n = 0; from < inline.size(); from += SEGMENT_PARTS, n++) {
            List<Integer> positions = inline.subList(from, Math.min(inline.size(), from + SEGMENT_PARTS));
            List<ManifestPart> chunk = new ArrayList<>(positions.size());
            for (int position : positions) {
                chunk.add(parts.get(position));
            }
            SegmentCodec.Encoded encoded = SegmentCodec.encode(chunk, codec);
            String name = String.format(java.util.Locale.ROOT, "%d-%s-%d.seg", manifest.generation(), manifest.jobId(), n);
            writer.write(name, encoded.bytes());
            Segment segment = new Segment(name, encoded.bytes().length, chunk.size(), encoded.statistics());
            for (int i = 0; i < positions.size(); i++) {
                parts.set(positions.get(i), chunk.get(i).inSegment(new SegmentRef(segment, i)));
            }
        }
        return new Manifest(manifest.version(), manifest.writer(), manifest.jobId(), manifest.generation(),
                manifest.operation(), manifest.createdAt(), manifest.committedAt(), parts, manifest.removed(),
                manifest.history(), manifest.restorableFrom(), manifest.properties(), manifest.datasetSchema());
    }

    /** The segments a manifest names (through its parts and removed parts), in order. */
    public static java.util.Set<Segment> named(Manifest manifest) {
        java.util.Set<Segment> named = new java.util.LinkedHashSet<>();
        for (ManifestPart p : manifest.parts()) {
            if (p.segment() != null) {
                named.add(p.segment().segment());
            }
        }
        for (io.stork.manifest.RemovedPart r : manifest.removed()) {
            if (r.part().segment() != null) {
                named.add(r.part().segment().segment());
            }
        }
        return named;
    }
}

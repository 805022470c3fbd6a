package io.stork.manifest.segment;

import io.stork.manifest.CorruptManifestException;
import io.stork.manifest.ManifestPart;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * The binary form of a segment (docs/manifest-format.md#segments): a zlib stream (its Adler-32 catches a
 * damaged object) of a header, the parts' fields row by row (job ids from a dictionary) and their
 * statistics, as one columnar block of the {@link StatisticsBlockCodec} or as JSON per part. No JSON
 * parser runs over a segment: a million parts decode in a fraction of the time their JSON takes.
 */
public final class SegmentCodec {

    private static final byte[] MAGIC = "STORKSEG".getBytes(StandardCharsets.US_ASCII);
    private static final int FORMAT = 1;
    private static final byte STATS_NONE = 0;
    private static final byte STATS_BLOCK = 1;
    private static final byte STATS_JSON = 2;

    private SegmentCodec() {
    }

    /** What a segment decodes to: the segment and its parts, each referring to it. */
    public record Decoded(Segment segment, List<ManifestPart> parts) {
    }

    /** A segment's bytes, and the statistics block inside them (null: none, or kept as JSON). */
    public record Encoded(byte[] bytes, byte[] statistics) {
    }

    /**
     * Encodes {@code parts} (their statistics into a block where {@code codec} is given, else as JSON).
     * Their {@link ManifestPart#segment()} is ignored: the result is a new segment's content.
     */
    public static Encoded encode(List<ManifestPart> parts, StatisticsBlockCodec codec) throws IOException {
        byte[] block;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes, deflater, 1 << 16))) {
            out.write(MAGIC);
            out.writeInt(FORMAT);
            out.writeInt(parts.size());
            Map<String, Integer> jobs = new HashMap<>();
            List<String> jobList = new ArrayList<>();
            for (ManifestPart p : parts) {
                if (jobs.putIfAbsent(p.jobId(), jobs.size()) == null) {
                    jobList.add(p.jobId());
                }
            }
            Varints.writeVarLong(out, jobList.size());
            for (String job : jobList) {
                Varints.writeNullableString(out, job);
            }
            boolean anyStats = false;
            List<String> stats = new ArrayList<>(parts.size());
            for (ManifestPart p : parts) {
                Varints.writeNullableString(out, p.path());
                Varints.writeVarLong(out, p.length());
                Varints.writeNullableString(out, p.etag());
                Varints.writeVarLong(out, jobs.get(p.jobId()));
                Varints.writeVarLong(out, p.task());
                Varints.writeVarLong(out, p.attempt());
                Varints.writeVarLong(out, p.modifiedAt());
                Varints.writeVarLong(out, p.records() == null ? 0 : p.records() + 1);
                Varints.writeVarLong(out, p.addedIn());
                Varints.writeVarLong(out, p.tail());
                String json = p.statsJson();
                stats.add(json);
                anyStats |= json != null;
            }
            block = anyStats && codec != null ? codec.encode(stats) : null;
            if (!anyStats) {
                out.writeByte(STATS_NONE);
            } else if (block != null) {
                out.writeByte(STATS_BLOCK);
                Varints.writeVarLong(out, block.length);
                out.write(block);
            } else {
                out.writeByte(STATS_JSON);
                for (String json : stats) {
                    Varints.writeNullableString(out, json);
                }
            }
            out.write(MAGIC); // the end: a segment cut short fails here at the latest
        } finally {
            deflater.end();
        }
        return new Encoded(bytes.toByteArray(), block);
    }

    /**
     * Decodes a segment the manifest names as {@code name} of {@code length} bytes.
     *
     * @param source names the segment in messages
     * @throws CorruptManifestException if the bytes are not a whole, intact segment of that length
     */
    public static Decoded decode(String name, long length, InputStream in, String source) throws IOException {
        byte[] compressed = in.readAllBytes();
        if (compressed.length != length) {
            throw new CorruptManifestException(source, "segment of " + compressed.length + " bytes, the manifest says "
                    + length + " (replaced or cut short)");
        }
        // Inflated whole before any of it is parsed: the zlib checksum vouches for every byte, so a damaged
        // segment fails here rather than as a wild length further on.
        byte[] content = inflate(compressed, source);
        try {
            ByteCursor data = new ByteCursor(content);
            byte[] magic = data.readBytes(MAGIC.length);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new CorruptManifestException(source, "not a Stork segment");
            }
            int format = data.readInt();
            if (format != FORMAT) {
                throw new CorruptManifestException(source, "segment format " + format + " is not one this reader "
                        + "understands (" + FORMAT + "): upgrade Stork");
            }
            int n = data.readInt();
            if (n < 0 || n > content.length) {
                throw new CorruptManifestException(source, "bad part count " + n);
            }
            long jobCount = data.readVarLong();
            if (jobCount < 0 || jobCount > n) {
                throw new CorruptManifestException(source, "bad job count");
            }
            String[] jobs = new String[(int) jobCount];
            for (int i = 0; i < jobCount; i++) {
                jobs[i] = data.readNullableString();
            }
            String[] paths = new String[n];
            String[] etags = new String[n];
            long[] fields = new long[8 * n];
            for (int i = 0; i < n; i++) {
                paths[i] = data.readNullableString();
                fields[8 * i] = data.readVarLong();
                etags[i] = data.readNullableString();
                for (int f = 1; f < 8; f++) {
                    fields[8 * i + f] = data.readVarLong();
                }
            }
            byte mode = data.readByte();
            byte[] block = null;
            String[] json = null;
            if (mode == STATS_BLOCK) {
                block = data.readBytes(data.readVarLong());
            } else if (mode == STATS_JSON) {
                json = new String[n];
                for (int i = 0; i < n; i++) {
                    json[i] = data.readNullableString();
                }
            } else if (mode != STATS_NONE) {
                throw new CorruptManifestException(source, "unknown statistics mode " + mode);
            }
            if (!java.util.Arrays.equals(data.readBytes(MAGIC.length), MAGIC) || data.remaining() != 0) {
                throw new CorruptManifestException(source, "the segment does not end where its content does");
            }
            Segment segment = new Segment(name, length, n, block);
            List<ManifestPart> parts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int f = 8 * i;
                long records = fields[f + 5];
                long job = fields[f + 1];
                if (job < 0 || job >= jobCount) {
                    throw new CorruptManifestException(source, "part " + i + " names job " + job + " of " + jobCount);
                }
                parts.add(new ManifestPart(paths[i], fields[f], etags[i], jobs[(int) job], (int) fields[f + 2],
                        fields[f + 3], fields[f + 4], records == 0 ? null : records - 1,
                        json == null ? null : json[i], fields[f + 6], (int) fields[f + 7],
                        new SegmentRef(segment, i)));
            }
            return new Decoded(segment, parts);
        } catch (CorruptManifestException e) {
            throw e;
        } catch (IOException e) {
            throw new CorruptManifestException(source, "damaged or cut short (" + e.getMessage() + ")", e);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new CorruptManifestException(source, "damaged (" + e.getMessage() + ")", e);
        }
    }

    private static byte[] inflate(byte[] compressed, String source) throws IOException {
        java.util.zip.Inflater inflater = new java.util.zip.Inflater();
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.length * 4);
            byte[] buffer = new byte[1 << 16];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new CorruptManifestException(source, "segment cut short");
                }
                out.write(buffer, 0, n);
            }
            if (inflater.getRemaining() > 0) {
                throw new CorruptManifestException(source, "bytes after the segment's end");
            }
            return out.toByteArray();
        } catch (java.util.zip.DataFormatException e) {
            throw new CorruptManifestException(source, "damaged segment (" + e.getMessage() + ")", e);
        } finally {
            inflater.end();
        }
    }
}

package io.stork.manifest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stork.manifest.segment.Segment;
import io.stork.manifest.segment.SegmentCodec;
import io.stork.manifest.segment.SegmentSource;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The {@code segments[]} of a version-2 manifest: which segments it names and, per segment, which of its
 * parts are current, removed (with when) or dropped for good, as runs of ordinals (an overwrite of a
 * million parts is one run). The parts themselves are in the segments.
 */
final class SegmentsJson {

    private SegmentsJson() {
    }

    /** What a manifest says of one segment. */
    record Ref(String name, long length, int parts, List<long[]> removedRuns, List<Instant> removedAt,
               List<long[]> droppedRuns) {
    }

    /** The segments the parts and removed parts are kept in, in order of first appearance. */
    static Map<Segment, byte[]> states(List<ManifestPart> parts, List<RemovedPart> removed) {
        Map<Segment, byte[]> states = new LinkedHashMap<>();
        for (ManifestPart p : parts) {
            if (p.segment() != null) {
                state(states, p.segment().segment())[p.segment().ordinal()] = LIVE;
            }
        }
        for (RemovedPart r : removed) {
            if (r.part().segment() != null) {
                state(states, r.part().segment().segment())[r.part().segment().ordinal()] = REMOVED;
            }
        }
        return states;
    }

    private static final byte DROPPED = 0;
    private static final byte LIVE = 1;
    private static final byte REMOVED = 2;

    private static byte[] state(Map<Segment, byte[]> states, Segment s) {
        return states.computeIfAbsent(s, k -> new byte[k.partCount()]);
    }

    static void write(JsonGenerator g, Map<Segment, byte[]> states, List<RemovedPart> removed) throws IOException {
        Map<Segment, Map<Integer, RemovedPart>> removals = new LinkedHashMap<>();
        for (RemovedPart r : removed) {
            if (r.part().segment() != null) {
                removals.computeIfAbsent(r.part().segment().segment(), k -> new java.util.HashMap<>())
                        .put(r.part().segment().ordinal(), r);
            }
        }
        g.writeArrayFieldStart("segments");
        for (Map.Entry<Segment, byte[]> e : states.entrySet()) {
            Segment s = e.getKey();
            byte[] state = e.getValue();
            g.writeRaw('\n');
            g.writeStartObject();
            g.writeStringField("name", s.name());
            g.writeNumberField("length", s.length());
            g.writeNumberField("parts", s.partCount());
            Map<Integer, RemovedPart> byOrdinal = removals.getOrDefault(s, Map.of());
            g.writeArrayFieldStart("removed");
            for (int i = 0; i < state.length; ) {
                if (state[i] != REMOVED) {
                    i++;
                    continue;
                }
                RemovedPart first = byOrdinal.get(i);
                int end = i;
                while (end + 1 < state.length && state[end + 1] == REMOVED
                        && byOrdinal.get(end + 1).removedIn() == first.removedIn()
                        && byOrdinal.get(end + 1).removedAt().equals(first.removedAt())) {
                    end++;
                }
                g.writeStartArray();
                g.writeNumber(i);
                g.writeNumber(end);
                g.writeNumber(first.removedIn());
                g.writeString(first.removedAt().toString());
                g.writeEndArray();
                i = end + 1;
            }
            g.writeEndArray();
            g.writeArrayFieldStart("dropped");
            for (int i = 0; i < state.length; ) {
                if (state[i] != DROPPED) {
                    i++;
                    continue;
                }
                int end = i;
                while (end + 1 < state.length && state[end + 1] == DROPPED) {
                    end++;
                }
                g.writeStartArray();
                g.writeNumber(i);
                g.writeNumber(end);
                g.writeEndArray();
                i = end + 1;
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    static List<Ref> read(JsonParser p, String source, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            throw new CorruptManifestException(source, "\"segments\" is not an array");
        }
        List<Ref> refs = new ArrayList<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String name = null;
            Long length = null;
            Integer parts = null;
            List<long[]> removedRuns = new ArrayList<>();
            List<Instant> removedAt = new ArrayList<>();
            List<long[]> droppedRuns = new ArrayList<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "name" -> name = p.getValueAsString();
                    case "length" -> length = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                    case "parts" -> parts = v == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : null;
                    case "removed" -> readRuns(p, source, v, 4, removedRuns, removedAt);
                    case "dropped" -> readRuns(p, source, v, 2, droppedRuns, null);
                    default -> p.skipChildren();
                }
            }
            String where = "segment " + refs.size();
            if (name == null || length == null || parts == null || parts < 0) {
                throw new CorruptManifestException(source, where + ": name, length or parts missing");
            }
            refs.add(new Ref(name, length, parts, removedRuns, removedAt, droppedRuns));
        }
        if (p.currentToken() != JsonToken.END_ARRAY) {
            throw new CorruptManifestException(source, "segment " + refs.size() + " is not an object");
        }
        return refs;
    }

    private static void readRuns(JsonParser p, String source, JsonToken value, int width, List<long[]> runs,
                                 List<Instant> at) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            throw new CorruptManifestException(source, "segment runs are not an array");
        }
        while (p.nextToken() == JsonToken.START_ARRAY) {
            long[] run = new long[3];
            for (int i = 0; i < width; i++) {
                JsonToken t = p.nextToken();
                if (i < 3 && t == JsonToken.VALUE_NUMBER_INT) {
                    run[i] = p.getLongValue();
                } else if (i == 3 && t == JsonToken.VALUE_STRING) {
                    try {
                        at.add(Instant.parse(p.getText()));
                    } catch (DateTimeException e) {
                        throw new CorruptManifestException(source, "bad removal time " + p.getText(), e);
                    }
                } else {
                    throw new CorruptManifestException(source, "a segment run has the wrong shape");
                }
            }
            if (p.nextToken() != JsonToken.END_ARRAY || run[0] < 0 || run[1] < run[0]) {
                throw new CorruptManifestException(source, "a segment run has the wrong shape");
            }
            runs.add(run);
        }
    }

    /** The parts named by {@code refs}, fetched from {@code segments} (in parallel when several). */
    static void resolve(List<Ref> refs, SegmentSource segments, String source, List<ManifestPart> parts,
                        List<RemovedPart> removed) throws IOException {
        List<SegmentCodec.Decoded> decoded = load(refs, segments);
        for (int s = 0; s < refs.size(); s++) {
            Ref ref = refs.get(s);
            SegmentCodec.Decoded d = decoded.get(s);
            if (d.parts().size() != ref.parts() || d.segment().length() != ref.length()) {
                throw new CorruptManifestException(source, "segment " + ref.name() + " holds " + d.parts().size()
                        + " parts, the manifest says " + ref.parts());
            }
            byte[] state = new byte[ref.parts()];
            java.util.Arrays.fill(state, LIVE);
            long[] removedIn = new long[ref.parts()];
            Instant[] removedAt = new Instant[ref.parts()];
            for (int r = 0; r < ref.removedRuns().size(); r++) {
                long[] run = ref.removedRuns().get(r);
                for (long i = run[0]; i <= run[1]; i++) {
                    int o = ordinal(i, ref, source);
                    state[o] = REMOVED;
                    removedIn[o] = run[2];
                    removedAt[o] = ref.removedAt().get(r);
                }
            }
            for (long[] run : ref.droppedRuns()) {
                for (long i = run[0]; i <= run[1]; i++) {
                    state[ordinal(i, ref, source)] = DROPPED;
                }
            }
            for (int i = 0; i < state.length; i++) {
                ManifestPart part = d.parts().get(i);
                if (state[i] == LIVE) {
                    parts.add(part);
                } else if (state[i] == REMOVED) {
                    try {
                        removed.add(new RemovedPart(part, removedIn[i], removedAt[i]));
                    } catch (IllegalArgumentException e) {
                        throw new CorruptManifestException(source, e.getMessage(), e);
                    }
                }
            }
        }
    }

    private static int ordinal(long i, Ref ref, String source) throws CorruptManifestException {
        if (i >= ref.parts()) {
            throw new CorruptManifestException(source, "segment " + ref.name() + " has no part " + i);
        }
        return (int) i;
    }

    private static List<SegmentCodec.Decoded> load(List<Ref> refs, SegmentSource segments) throws IOException {
        if (refs.size() == 1) {
            return List.of(segments.load(refs.get(0).name(), refs.get(0).length()));
        }
        // Segments are independent objects: fetch and decode a few at once.
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(refs.size(), 4), r -> {
            Thread t = new Thread(r, "stork-segment-reader");
            t.setDaemon(true);
            return t;
        });
        try {
            List<CompletableFuture<SegmentCodec.Decoded>> futures = new ArrayList<>();
            for (Ref ref : refs) {
                futures.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return segments.load(ref.name(), ref.length());
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }, pool));
            }
            List<SegmentCodec.Decoded> result = new ArrayList<>();
            for (CompletableFuture<SegmentCodec.Decoded> f : futures) {
                try {
                    result.add(f.join());
                } catch (java.util.concurrent.CompletionException e) {
                    Throwable cause = e.getCause() instanceof java.io.UncheckedIOException u ? u.getCause() : e.getCause();
                    if (cause instanceof IOException io) {
                        throw io;
                    }
                    throw e;
                }
            }
            return result;
        } finally {
            pool.shutdownNow();
        }
    }
}

package io.stork.manifest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes manifests as JSON (docs/manifest-format.md). Both directions stream with Jackson's
 * core parser and generator: a manifest of 100,000 parts is never held as a tree, only as the records.
 * Unknown fields are skipped, so later minor additions do not break older readers; a version newer than
 * {@link Manifest#CURRENT_VERSION} is refused rather than half-understood.
 */
public final class ManifestCodec {

    /** The value of the "format" field that marks a Stork manifest (Hadoop's own _SUCCESS is empty). */
    public static final String FORMAT = "stork-manifest";

    static final JsonFactory JSON = JsonFactory.builder().build();

    private ManifestCodec() {
    }

    public static void write(Manifest manifest, OutputStream out) throws IOException {
        ManifestWriter.write(manifest, out);
    }

    /**
     * Parses a manifest.
     *
     * @param source names the manifest in messages (its path)
     * @throws CorruptManifestException if the content is not a valid Stork manifest
     */
    public static Manifest read(InputStream in, String source) throws IOException {
        return read(in, source, io.stork.manifest.segment.SegmentSource.NONE);
    }

    /** Parses a manifest, taking the segments it names from {@code segments}. */
    public static Manifest read(InputStream in, String source, io.stork.manifest.segment.SegmentSource segments)
            throws IOException {
        return read(in, source, false, segments).orElseThrow();
    }

    /**
     * Parses a {@code _SUCCESS} object that may not be a Stork manifest at all (Hadoop writes an empty one,
     * other committers their own JSON): empty if it is not one; an exception if it says it is one and is
     * broken. Stork writes "format" first, so a foreign file is recognised without reading it all. An empty
     * object is Hadoop's marker; a JSON object without Stork's "format" another committer's (S3A's); any
     * other content fails with {@link CorruptManifestException}.
     */
    public static java.util.Optional<Manifest> readIfStork(InputStream in, String source) throws IOException {
        return readIfStork(in, source, io.stork.manifest.segment.SegmentSource.NONE);
    }

    /** As {@link #readIfStork(InputStream, String)}, taking the segments it names from {@code segments}. */
    public static java.util.Optional<Manifest> readIfStork(InputStream in, String source,
                                                           io.stork.manifest.segment.SegmentSource segments)
            throws IOException {
        return read(in, source, true, segments);
    }

    private static java.util.Optional<Manifest> read(InputStream in, String source, boolean lenient,
                                                     io.stork.manifest.segment.SegmentSource segments)
            throws IOException {
        boolean[] claimsStork = {false};
        try (JsonParser p = JSON.createParser(new RetainingInput(in))) {
            return java.util.Optional.ofNullable(readManifest(p, source, lenient, claimsStork, segments));
        } catch (JsonProcessingException e) {
            // Foreign JSON is recognised by its first field; anything that is not JSON at all (a truncated
            // or overwritten object) is corrupt, never "no manifest", which would hide the damage.
            throw new CorruptManifestException(source, "not valid JSON (" + e.getOriginalMessage() + ")", e);
        }
    }

    private static Manifest readManifest(JsonParser p, String source, boolean lenient, boolean[] claimsStork,
                                         io.stork.manifest.segment.SegmentSource segmentSource) throws IOException {
        JsonToken first = p.nextToken();
        if (first == null && lenient) {
            return null; // empty: Hadoop's own success marker
        }
        if (first != JsonToken.START_OBJECT) {
            throw new CorruptManifestException(source, "not a JSON object");
        }
        String format = null;
        Integer version = null;
        String writer = null;
        String jobId = null;
        Long generation = null;
        String operation = null;
        String createdAt = null;
        String committedAt = null;
        List<ManifestPart> parts = null;
        List<RemovedPart> removed = List.of();
        List<GenerationInfo> history = List.of();
        long restorableFrom = 0;
        java.util.Map<String, String> properties = new java.util.TreeMap<>();
        List<SegmentsJson.Ref> segments = List.of();
        DatasetSchema schema = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "format" -> {
                    format = p.getValueAsString();
                    claimsStork[0] = FORMAT.equals(format);
                    if (lenient && !claimsStork[0]) {
                        return null;
                    }
                }
                case "version" -> version = value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : null;
                case "writer" -> writer = p.getValueAsString();
                case "jobId" -> jobId = p.getValueAsString();
                case "generation" -> generation = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                case "operation" -> operation = p.getValueAsString();
                case "createdAt" -> createdAt = p.getValueAsString();
                case "committedAt" -> committedAt = p.getValueAsString();
                case "parts" -> {
                    if (value != JsonToken.START_ARRAY) {
                        throw new CorruptManifestException(source, "\"parts\" is not an array");
                    }
                    parts = readParts(p, source);
                }
                case "removed" -> removed = readRemoved(p, source, value);
                case "schema" -> schema = SchemaJson.read(p, source, value);
                case "segments" -> segments = SegmentsJson.read(p, source, value);
                case "history" -> history = readHistory(p, source, value);
                case "restorableFrom" -> restorableFrom = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : 0;
                case "properties" -> {
                    if (value != JsonToken.START_OBJECT) {
                        throw new CorruptManifestException(source, "\"properties\" is not an object");
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String key = p.currentName();
                        if (p.nextToken() != JsonToken.VALUE_STRING) {
                            throw new CorruptManifestException(source, "property \"" + key + "\" is not a string");
                        }
                        properties.put(key, p.getText());
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (!FORMAT.equals(format)) {
            if (lenient) {
                return null;
            }
            throw new CorruptManifestException(source, "\"format\" is not \"" + FORMAT + "\"");
        }
        if (version == null || version < 1) {
            throw new CorruptManifestException(source, "\"version\" is missing or not a positive integer");
        }
        if (version > Manifest.CURRENT_VERSION) {
            throw new CorruptManifestException(source, "format version " + version
                    + " is newer than this reader understands (" + Manifest.CURRENT_VERSION + "): upgrade Stork");
        }
        require(source, "writer", writer);
        require(source, "jobId", jobId);
        require(source, "generation", generation);
        require(source, "operation", operation);
        require(source, "parts", parts);
        if (!segments.isEmpty()) {
            List<ManifestPart> all = new ArrayList<>();
            List<RemovedPart> allRemoved = new ArrayList<>();
            SegmentsJson.resolve(segments, segmentSource, source, all, allRemoved);
            all.addAll(parts);
            allRemoved.addAll(removed);
            parts = all;
            removed = allRemoved;
        }
        try {
            return new Manifest(version, writer, jobId, generation, Manifest.Operation.fromJsonName(operation),
                    Instant.parse(require(source, "createdAt", createdAt)),
                    Instant.parse(require(source, "committedAt", committedAt)), parts, removed, history,
                    restorableFrom, properties, schema);
        } catch (DateTimeException | IllegalArgumentException e) {
            throw new CorruptManifestException(source, e.getMessage(), e);
        }
    }

    private static List<RemovedPart> readRemoved(JsonParser p, String source, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            throw new CorruptManifestException(source, "\"removed\" is not an array");
        }
        List<RemovedPart> removed = new ArrayList<>();
        JsonToken token;
        while ((token = p.nextToken()) == JsonToken.START_OBJECT) {
            PartFields fields = readPartFields(p, source, removed.size(), "removed part ");
            try {
                removed.add(new RemovedPart(fields.part(), require(source, "removed part \"removedIn\"",
                        fields.removedIn()), Instant.parse(require(source, "removed part \"removedAt\"",
                        fields.removedAt()))));
            } catch (DateTimeException | IllegalArgumentException e) {
                throw new CorruptManifestException(source, e.getMessage(), e);
            }
        }
        if (token != JsonToken.END_ARRAY) {
            throw new CorruptManifestException(source, "removed part " + removed.size() + " is not an object");
        }
        return removed;
    }

    private static List<GenerationInfo> readHistory(JsonParser p, String source, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            throw new CorruptManifestException(source, "\"history\" is not an array");
        }
        List<GenerationInfo> history = new ArrayList<>();
        JsonToken token;
        while ((token = p.nextToken()) == JsonToken.START_OBJECT) {
            Long generation = null;
            String operation = null;
            String job = null;
            String committedAt = null;
            long parts = 0;
            long bytes = 0;
            Long records = null;
            long added = 0;
            long removedCount = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                boolean number = v == JsonToken.VALUE_NUMBER_INT;
                switch (field) {
                    case "generation" -> generation = number ? p.getLongValue() : null;
                    case "operation" -> operation = p.getValueAsString();
                    case "job" -> job = p.getValueAsString();
                    case "committedAt" -> committedAt = p.getValueAsString();
                    case "parts" -> parts = number ? p.getLongValue() : 0;
                    case "bytes" -> bytes = number ? p.getLongValue() : 0;
                    case "records" -> records = number ? p.getLongValue() : null;
                    case "added" -> added = number ? p.getLongValue() : 0;
                    case "removed" -> removedCount = number ? p.getLongValue() : 0;
                    default -> p.skipChildren();
                }
            }
            String where = "history entry " + history.size();
            try {
                history.add(new GenerationInfo(require(source, where + " \"generation\"", generation),
                        Manifest.Operation.fromJsonName(require(source, where + " \"operation\"", operation)),
                        require(source, where + " \"job\"", job),
                        Instant.parse(require(source, where + " \"committedAt\"", committedAt)),
                        (int) parts, bytes, records, (int) added, (int) removedCount));
            } catch (DateTimeException | IllegalArgumentException e) {
                throw new CorruptManifestException(source, e.getMessage(), e);
            }
        }
        if (token != JsonToken.END_ARRAY) {
            throw new CorruptManifestException(source, "history entry " + history.size() + " is not an object");
        }
        return history;
    }

    private static List<ManifestPart> readParts(JsonParser p, String source) throws IOException {
        List<ManifestPart> parts = new ArrayList<>();
        JsonToken token;
        while ((token = p.nextToken()) == JsonToken.START_OBJECT) {
            parts.add(readPartFields(p, source, parts.size(), "part ").part());
        }
        if (token != JsonToken.END_ARRAY) {
            throw new CorruptManifestException(source, "part " + parts.size() + " is not an object");
        }
        return parts;
    }

    private record PartFields(ManifestPart part, Long removedIn, String removedAt) {
    }

    private static PartFields readPartFields(JsonParser p, String source, int index, String what) throws IOException {
        String path = null;
        long addedIn = 0;
        Long removedIn = null;
        String removedAt = null;
        Long length = null;
        String etag = null;
        String job = null;
        Integer task = null;
        Long attempt = null;
        long modifiedAt = 0;
        Long records = null;
        String stats = null;
        int tail = 0;
        if (p.getInputSource() instanceof RetainingInput input) {
            input.release(p.currentTokenLocation().getByteOffset());
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "path" -> path = p.getValueAsString();
                case "length" -> length = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                case "etag" -> etag = p.getValueAsString();
                case "job" -> job = p.getValueAsString();
                case "task" -> task = value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : null;
                case "attempt" -> attempt = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                case "modifiedAt" -> modifiedAt = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : 0;
                case "records" -> records = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                case "stats" -> stats = copyStructure(p);
                case "addedIn" -> addedIn = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : 0;
                case "tail" -> tail = value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : 0;
                case "removedIn" -> removedIn = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                case "removedAt" -> removedAt = p.getValueAsString();
                default -> p.skipChildren();
            }
        }
        String where = what + index;
        try {
            return new PartFields(new ManifestPart(require(source, where + " \"path\"", path),
                    require(source, where + " \"length\"", length), etag, require(source, where + " \"job\"", job),
                    require(source, where + " \"task\"", task), require(source, where + " \"attempt\"", attempt),
                    modifiedAt, records, stats, addedIn, tail), removedIn, removedAt);
        } catch (IllegalArgumentException e) {
            throw new CorruptManifestException(source, e.getMessage(), e);
        }
    }

    private static String copyStructure(JsonParser p) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        if (p.currentToken() == JsonToken.START_OBJECT && p.getInputSource() instanceof RetainingInput input) {
            long from = p.currentTokenLocation().getByteOffset();
            if (from >= 0 && input.byteAt(from) == '{') {
                // The value as written: one slice of the input rather than a copy token by token.
                p.skipChildren();
                String text = input.text(from, p.currentLocation().getByteOffset());
                if (text == null || !text.endsWith("}")) {
                    throw new IOException("the manifest reader lost track of a value's bytes at offset " + from);
                }
                return text;
            }
        }
        StringWriter text = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(text)) {
            g.copyCurrentStructure(p);
        }
        return text.toString();
    }

    private static <T> T require(String source, String field, T value) throws CorruptManifestException {
        if (value == null) {
            throw new CorruptManifestException(source, field + " is missing or has the wrong type");
        }
        return value;
    }
}

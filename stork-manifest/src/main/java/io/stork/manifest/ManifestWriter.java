package io.stork.manifest;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;

/** Writes a manifest as JSON, streaming (docs/manifest-format.md); {@link ManifestCodec#write} is the entry. */
final class ManifestWriter {

    private ManifestWriter() {
    }

    static void write(Manifest manifest, OutputStream out) throws IOException {
        try (JsonGenerator g = ManifestCodec.JSON.createGenerator(out)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            java.util.Map<io.stork.manifest.segment.Segment, byte[]> segments =
                    SegmentsJson.states(manifest.parts(), manifest.removed());
            g.writeStartObject();
            g.writeStringField("format", ManifestCodec.FORMAT);
            // Version 1 while no segment is named, so that older readers keep reading small datasets.
            g.writeNumberField("version", segments.isEmpty() ? 1 : Manifest.CURRENT_VERSION);
            g.writeStringField("writer", manifest.writer());
            g.writeStringField("jobId", manifest.jobId());
            g.writeNumberField("generation", manifest.generation());
            g.writeStringField("operation", manifest.operation().jsonName());
            g.writeStringField("createdAt", manifest.createdAt().toString());
            g.writeStringField("committedAt", manifest.committedAt().toString());
            g.writeNumberField("partCount", manifest.parts().size());
            g.writeNumberField("totalLength", manifest.totalLength());
            g.writeNumberField("restorableFrom", manifest.restorableFrom());
            if (!manifest.properties().isEmpty()) {
                g.writeObjectFieldStart("properties");
                for (java.util.Map.Entry<String, String> e : manifest.properties().entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            if (manifest.datasetSchema() != null) {
                SchemaJson.write(g, manifest.datasetSchema());
            }
            if (!segments.isEmpty()) {
                SegmentsJson.write(g, segments, manifest.removed());
            }
            g.writeArrayFieldStart("parts");
            for (ManifestPart part : manifest.parts()) {
                if (part.segment() == null) {
                    // One line per part keeps the file readable with head/grep and diffable.
                    g.writeRaw('\n');
                    writePart(g, part, null);
                }
            }
            g.writeEndArray();
            if (manifest.removed().stream().anyMatch(r -> r.part().segment() == null)) {
                g.writeArrayFieldStart("removed");
                for (RemovedPart removed : manifest.removed()) {
                    if (removed.part().segment() == null) {
                        g.writeRaw('\n');
                        writePart(g, removed.part(), removed);
                    }
                }
                g.writeEndArray();
            }
            if (!manifest.history().isEmpty()) {
                g.writeArrayFieldStart("history");
                for (GenerationInfo info : manifest.history()) {
                    g.writeRaw('\n');
                    writeInfo(g, info);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }

    private static void writeInfo(JsonGenerator g, GenerationInfo info) throws IOException {
        g.writeStartObject();
        g.writeNumberField("generation", info.generation());
        g.writeStringField("operation", info.operation().jsonName());
        g.writeStringField("job", info.jobId());
        g.writeStringField("committedAt", info.committedAt().toString());
        g.writeNumberField("parts", info.partCount());
        g.writeNumberField("bytes", info.bytes());
        if (info.records() != null) {
            g.writeNumberField("records", info.records());
        }
        g.writeNumberField("added", info.added());
        g.writeNumberField("removed", info.removed());
        g.writeEndObject();
    }

    private static void writePart(JsonGenerator g, ManifestPart part, RemovedPart removed) throws IOException {
        g.writeStartObject();
        g.writeStringField("path", part.path());
        g.writeNumberField("length", part.length());
        if (part.etag() != null) {
            g.writeStringField("etag", part.etag());
        }
        g.writeStringField("job", part.jobId());
        g.writeNumberField("task", part.task());
        g.writeNumberField("attempt", part.attempt());
        g.writeNumberField("modifiedAt", part.modifiedAt());
        if (part.records() != null) {
            g.writeNumberField("records", part.records());
        }
        if (part.addedIn() > 0) {
            g.writeNumberField("addedIn", part.addedIn());
        }
        if (part.tail() > 0) {
            g.writeNumberField("tail", part.tail());
        }
        if (removed != null) {
            g.writeNumberField("removedIn", removed.removedIn());
            g.writeStringField("removedAt", removed.removedAt().toString());
        }
        if (part.statsJson() != null) {
            g.writeFieldName("stats");
            g.writeRawValue(part.statsJson());
        }
        g.writeEndObject();
    }
}

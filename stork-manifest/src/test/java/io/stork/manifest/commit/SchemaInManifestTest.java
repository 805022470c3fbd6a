package io.stork.manifest.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.manifest.CorruptManifestException;
import io.stork.manifest.DatasetSchema;
import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The schema a commit records (issue 26): handed over in the job's properties, evolved, read back. */
class SchemaInManifestTest {

    private static final String A = field("a", "\"long\"", false);
    private static final String B = field("b", "\"string\"", true);
    private static final String K = field("k", "\"integer\"", true);

    private final MemoryDatasetStorage storage = new MemoryDatasetStorage();
    private final CommitPoint commitPoint = new CommitPoint(storage,
            new CommitSettings(Duration.ofDays(7), Duration.ZERO, Duration.ofSeconds(60), Clock.systemUTC()));

    private static String field(String name, String type, boolean nullable) {
        return "{\"name\":\"" + name + "\",\"type\":" + type + ",\"nullable\":" + nullable + ",\"metadata\":{}}";
    }

    private static String struct(String... fields) {
        return "{\"type\":\"struct\",\"fields\":[" + String.join(",", fields) + "]}";
    }

    private static Map<String, String> handOver(String struct, String format, String... partitionColumns) {
        return Map.of(DatasetSchema.STRUCT_PROPERTY, struct, DatasetSchema.FORMAT_PROPERTY, format,
                DatasetSchema.PARTITION_COLUMNS_PROPERTY, DatasetSchema.partitionColumnsProperty(List.of(partitionColumns)));
    }

    private Manifest commit(String job, MergePlan plan, Map<String, String> properties, String... paths)
            throws Exception {
        List<ManifestPart> parts = new ArrayList<>();
        for (String path : paths) {
            parts.add(new ManifestPart(path, 10, "e", job, parts.size(), 0, 0, 1L, null));
        }
        commitPoint.commit(new CommitPoint.Request(job, "test", parts, plan, false, java.time.Instant.now(), null,
                properties));
        return commitPoint.current().orElseThrow(); // read back through the codec
    }

    private static MergePlan overwrite() {
        return new MergePlan() {
            @Override
            public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
                return List.of();
            }

            @Override
            public Manifest.Operation operation() {
                return Manifest.Operation.OVERWRITE;
            }
        };
    }

    @Test
    void aCreateRecordsTheWrittenSchemaAndNotAsAProperty() throws Exception {
        Manifest first = commit("j1", MergePlan.APPEND, handOver(struct(A, K), "parquet", "k"), "k=1/p0");

        assertThat(first.schema()).isEqualTo(struct(A, K));
        assertThat(first.datasetSchema().partitionColumns()).containsExactly("k");
        assertThat(first.datasetSchema().format()).isEqualTo("parquet");
        assertThat(first.datasetSchema().since()).isEqualTo(1);
        assertThat(first.properties()).isEmpty();
    }

    @Test
    void anAppendOfTheSameSchemaKeepsItsGenerationAndANewColumnMergesLikeParquetsMergeSchema() throws Exception {
        commit("j1", MergePlan.APPEND, handOver(struct(A), "parquet"), "p0");
        Manifest same = commit("j2", MergePlan.APPEND, handOver(struct(A), "parquet"), "p1");
        assertThat(same.datasetSchema().since()).isEqualTo(1);

        Manifest added = commit("j3", MergePlan.APPEND, handOver(struct(A, B), "parquet"), "p2");
        assertThat(added.schema()).as("the old parts have no b: it is nullable")
                .isEqualTo(struct(A, field("b", "\"string\"", true)));
        assertThat(added.datasetSchema().since()).isEqualTo(3);
        assertThat(added.datasetSchemaAt(3)).isNotNull();
        assertThat(added.datasetSchemaAt(2)).as("generation 2 had no b: time travel infers").isNull();

        Manifest dropped = commit("j4", MergePlan.APPEND, handOver(struct(B), "parquet"), "p3");
        assertThat(dropped.schema()).as("a column the new parts lack stays, nullable")
                .isEqualTo(struct(field("a", "\"long\"", true), B));
    }

    @Test
    void nestedStructsMergeAndAChangedTypeRecordsNoSchema() throws Exception {
        String inner1 = struct(field("x", "\"integer\"", true));
        String inner2 = struct(field("x", "\"integer\"", true), field("y", "\"double\"", true));
        commit("j1", MergePlan.APPEND, handOver(struct(field("s", inner1, true)), "parquet"), "p0");
        Manifest nested = commit("j2", MergePlan.APPEND, handOver(struct(field("s", inner2, true)), "parquet"), "p1");
        assertThat(nested.schema()).isEqualTo(struct(field("s", inner2, true)));

        Manifest conflict = commit("j3", MergePlan.APPEND, handOver(struct(field("s", "\"string\"", true)), "parquet"),
                "p2");
        assertThat(conflict.schema()).as("no schema reads every part").isNull();
        Manifest after = commit("j4", MergePlan.APPEND, handOver(struct(A), "parquet"), "p3");
        assertThat(after.schema()).as("parts of unknown schema stay unknown").isNull();
        Manifest overwritten = commit("j5", overwrite(), handOver(struct(A), "parquet"), "p4");
        assertThat(overwritten.schema()).as("an overwrite starts again").isEqualTo(struct(A));
        assertThat(overwritten.datasetSchema().since()).isEqualTo(5);
    }

    @Test
    void anotherFormatOtherPartitionColumnsOrAWriteWithoutSchemaRecordNone() throws Exception {
        commit("j1", MergePlan.APPEND, handOver(struct(A), "parquet"), "p0");
        assertThat(commit("j2", MergePlan.APPEND, handOver(struct(A), "orc"), "p1").schema()).isNull();

        commit("j3", overwrite(), handOver(struct(A, K), "parquet", "k"), "k=1/p2");
        assertThat(commit("j4", MergePlan.APPEND, handOver(struct(A, K), "parquet"), "p3").schema()).isNull();

        commit("j5", overwrite(), handOver(struct(A), "parquet"), "p4");
        assertThat(commit("j6", MergePlan.APPEND, Map.of(), "p5").schema()).as("an RDD's parts").isNull();
        assertThat(commit("j7", overwrite(), handOver("{\"type\":", "parquet"), "p6").schema())
                .as("a hand-over that is no schema is not written").isNull();
    }

    @Test
    void maintenanceKeepsTheSchemaAndARestoreKeepsItOnlyIfItNeverChanged() throws Exception {
        commit("j1", MergePlan.APPEND, handOver(struct(A), "parquet"), "p0");
        Manifest kept = commit("j2", MergePlan.APPEND, Map.of(), new String[0]);
        assertThat(kept.schema()).as("no new parts: nothing changes").isEqualTo(struct(A));

        Manifest restore = commitPoint.commit(new CommitPoint.Request("r1", "test", List.of(), restore(), false,
                java.time.Instant.now()));
        assertThat(restore.schema()).isEqualTo(struct(A));
        commit("j3", MergePlan.APPEND, handOver(struct(A, B), "parquet"), "p1");
        Manifest restored = commitPoint.commit(new CommitPoint.Request("r2", "test", List.of(), restore(), false,
                java.time.Instant.now()));
        assertThat(restored.schema()).as("the schema changed within the listed generations").isNull();
    }

    private static MergePlan restore() {
        return new MergePlan() {
            @Override
            public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
                return previous.subList(0, 1);
            }

            @Override
            public Manifest.Operation operation() {
                return Manifest.Operation.RESTORE;
            }
        };
    }

    @Test
    void aManifestWithoutSchemaReadsAsBeforeAndABrokenSchemaIsCorrupt() throws Exception {
        String old = "{\"format\":\"stork-manifest\",\"version\":1,\"writer\":\"stork 0.1.0\",\"jobId\":\"j\","
                + "\"generation\":1,\"operation\":\"create\",\"createdAt\":\"2026-11-23T05:47:01.114Z\","
                + "\"committedAt\":\"2026-11-23T05:47:02.371Z\",\"parts\":[]}";
        Manifest read = ManifestCodec.read(new ByteArrayInputStream(old.getBytes(StandardCharsets.UTF_8)), "old");
        assertThat(read.schema()).isNull();
        assertThat(read.datasetSchema()).isNull();

        String broken = old.replace("\"parts\"", "\"schema\":{\"format\":\"parquet\",\"since\":1},\"parts\"");
        assertThatThrownBy(() -> ManifestCodec.read(new ByteArrayInputStream(broken.getBytes(StandardCharsets.UTF_8)),
                "stork://b/t/_SUCCESS")).isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("\"schema\" lacks");
    }

    @Test
    void theSchemaIsWrittenAsAnObjectAndReadBackAsWritten() throws Exception {
        Manifest m = commit("j1", MergePlan.APPEND, handOver(struct(A, K), "csv", "k"), "k=1/p0");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ManifestCodec.write(m, out);
        String json = out.toString(StandardCharsets.UTF_8);
        assertThat(json).contains("\"schema\":{\"format\":\"csv\",\"since\":1,\"partitionColumns\":[\"k\"],\"struct\":"
                + struct(A, K) + "}");
        assertThat(json).contains("\"version\":1");
        Manifest back = ManifestCodec.read(new ByteArrayInputStream(out.toByteArray()), "mem");
        assertThat(back.datasetSchema()).isEqualTo(m.datasetSchema());
    }
}

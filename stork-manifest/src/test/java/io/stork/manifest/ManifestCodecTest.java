package io.stork.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ManifestCodecTest {

    private static final String JOB = "5f0c6f7e-1b2a-4c3d-8e9f-0a1b2c3d4e5f";

    private static Manifest manifest(List<ManifestPart> parts) {
        return new Manifest(1, "stork test", JOB, 3, Manifest.Operation.APPEND,
                Instant.parse("2026-11-23T05:00:00Z"), Instant.parse("2026-11-23T05:01:02.345Z"), parts);
    }

    private static byte[] encode(Manifest manifest) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ManifestCodec.write(manifest, out);
        return out.toByteArray();
    }

    private static Manifest decode(String json) throws IOException {
        return ManifestCodec.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test/_SUCCESS");
    }

    @Test
    void roundTripsDatasetPropertiesAndRejectsMalformedOnes() throws IOException {
        Manifest plain = manifest(List.of());
        Manifest original = new Manifest(1, plain.writer(), JOB, 3, Manifest.Operation.APPEND, plain.createdAt(),
                plain.committedAt(), List.of(), List.of(), List.of(), 3,
                java.util.Map.of("stork.skipping.columns", "id,name", "stork.skipping.indexes", "name:bloom"));
        byte[] json = encode(original);
        assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"properties\":{\"stork.skipping.columns\":\"id,name\"");
        assertThat(ManifestCodec.read(new ByteArrayInputStream(json), "x").properties())
                .isEqualTo(original.properties());
        assertThat(new String(encode(plain), StandardCharsets.UTF_8)).doesNotContain("properties");
        String bad = new String(json, StandardCharsets.UTF_8).replace("\"id,name\"", "7");
        assertThatThrownBy(() -> decode(bad)).isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("property \"stork.skipping.columns\" is not a string");
    }

    @Test
    void roundTripsThePartsTailAndDropsOneThatCannotBeRight() throws IOException {
        ManifestPart part = new ManifestPart("part-00000-x.parquet", 5000, "\"e\"", JOB, 0, 1, 7L, 10L, null, 1)
                .withTail(1234);
        Manifest original = manifest(List.of(part));
        String json = new String(encode(original), StandardCharsets.UTF_8);
        assertThat(json).contains("\"tail\":1234");
        assertThat(decode(json).parts().get(0).tail()).isEqualTo(1234);
        assertThat(decode(json.replace("\"tail\":1234", "\"tail\":9999")).parts().get(0).tail()).isZero();
        assertThat(new String(encode(manifest(List.of(part.withTail(0)))), StandardCharsets.UTF_8)).doesNotContain("tail");
    }

    /** A JSON text as its tokens and their values: equal for the same JSON, however spaced or numbers written. */
    private static List<String> tokens(String json) throws IOException {
        List<String> tokens = new java.util.ArrayList<>();
        try (com.fasterxml.jackson.core.JsonParser p = new com.fasterxml.jackson.core.JsonFactory().createParser(json)) {
            for (com.fasterxml.jackson.core.JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                // Numbers by value: a copy may write 1e300 as 1.0E300.
                tokens.add(t + " " + (t == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_FLOAT ? p.getDoubleValue()
                        : t == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT ? p.getBigIntegerValue() : p.getText()));
            }
        }
        return tokens;
    }

    @Test
    void statisticsAreCopiedAsTheSameJsonWhateverTheyHold() throws IOException {
        String[] values = {"{}", "[]", "7", "\"x\"", "null", "true",
                "{\"v\":1,\"rows\":3,\"columns\":{\"a\":{\"type\":\"double\",\"nulls\":0,\"min\":-1.5E-7,\"max\":1e300}}}",
                "{\"s\":\"quote \\\" backslash \\\\ tab \\t unicode \u00fc\u65e5 \\u0001\",\"n\":[1,[2,{}],[],{\"k\":[false,null]}]}",
                "{\"b\":\"QUJD+/==\",\"big\":123456789012345678901234567890,\"neg\":-0.0}"};
        for (String stats : values) {
            ManifestPart part = new ManifestPart("p-" + stats.length(), 1, null, JOB, 0, 1, 0, null,
                    stats.equals("null") ? null : stats, 1);
            Manifest read = ManifestCodec.read(new ByteArrayInputStream(encode(manifest(List.of(part)))), "x");
            String copied = read.parts().get(0).statsJson();
            if (stats.equals("null")) {
                assertThat(copied).isNull();
            } else {
                assertThat(tokens(copied)).as(stats).isEqualTo(tokens(stats));
            }
        }
    }

    @Test
    void statisticsAreReadAsWrittenWhereverTheInputSplitsThem() throws IOException {
        // Parts whose statistics straddle the reader's buffers, one of them larger than any buffer, with and
        // without statistics in between, current and removed; read whole and one byte per read call.
        List<ManifestPart> parts = new ArrayList<>();
        List<RemovedPart> removed = new ArrayList<>();
        java.util.Random random = new java.util.Random(13);
        for (int i = 0; i < 400; i++) {
            String stats = i % 7 == 3 ? null : "{\"v\":1,\"rows\":" + i + ",\"pad\":\"" + "éx".repeat(random.nextInt(i == 200 ? 90_000 : 300))
                    + "\",\"n\":[" + i + ",{\"k\":\"}\"}]}";
            ManifestPart part = new ManifestPart("p-" + i, i, "e" + i, JOB, i, 1, 0, 2L, stats, 1);
            if (i % 5 == 4) {
                removed.add(new RemovedPart(part, 2, Instant.parse("2026-11-23T05:00:00Z")));
            } else {
                parts.add(part);
            }
        }
        Manifest original = new Manifest(1, "stork test", JOB, 3, Manifest.Operation.APPEND,
                Instant.parse("2026-11-23T05:00:00Z"), Instant.parse("2026-11-23T05:01:02.345Z"), parts, removed,
                List.of(), 1);
        byte[] json = encode(original);
        assertThat(ManifestCodec.read(new ByteArrayInputStream(json), "x")).isEqualTo(original);
        java.io.InputStream trickle = new java.io.FilterInputStream(new ByteArrayInputStream(json)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1 + random.nextInt(3)));
            }
        };
        assertThat(ManifestCodec.read(trickle, "x")).isEqualTo(original);
        byte[] withBom = new byte[json.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(json, 0, withBom, 3, json.length);
        assertThat(ManifestCodec.read(new ByteArrayInputStream(withBom), "x")).isEqualTo(original);
    }

    @Test
    void theReaderHoldsOnePartNotTheManifest() throws IOException {
        RetainingInput input = new RetainingInput(new ByteArrayInputStream(new byte[10 << 20]));
        byte[] chunk = new byte[8000];
        long offset = 0;
        int n;
        while ((n = input.read(chunk, 0, chunk.length)) > 0) {
            offset += n;
            input.release(offset - 500); // the reader is 500 bytes into a part
            assertThat(input.held()).isLessThan(200_000);
        }
        assertThat(offset).isEqualTo(10 << 20);
        assertThat(input.text(offset - 500, offset)).hasSize(500);
        assertThat(input.text(0, 10)).isNull();
    }

    @Test
    void roundTripsEveryField() throws IOException {
        ManifestPart withStats = new ManifestPart("year=2024/" + PartNames.partFileName(7, JOB, 12, ".c000.csv"),
                1234, "abc", JOB, 7, 12, 1_763_000_000_000L, 99L, "{\"columns\":{\"id\":{\"min\":1,\"max\":9}}}");
        ManifestPart bare = new ManifestPart("part-00000", 0, null, JOB, 0, 0, 0, null, null);
        Manifest original = manifest(List.of(withStats, bare));

        byte[] json = encode(original);
        Manifest read = ManifestCodec.read(new ByteArrayInputStream(json), "x");

        assertThat(read).isEqualTo(original);
        assertThat(new String(json, StandardCharsets.UTF_8))
                .contains("\"format\":\"stork-manifest\"", "\"partCount\":2", "\"totalLength\":1234",
                        "\"operation\":\"append\"");
    }

    @Test
    void hundredThousandPartsRoundTrip() throws IOException {
        List<ManifestPart> parts = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            parts.add(new ManifestPart("d=" + (i % 100) + "/" + PartNames.partFileName(i, JOB, i, ".parquet"),
                    i, Integer.toHexString(i), JOB, i, i, 1_763_000_000_000L + i, (long) i, null));
        }
        Manifest original = manifest(parts);
        long start = System.nanoTime();
        byte[] json = encode(original);
        Manifest read = ManifestCodec.read(new ByteArrayInputStream(json), "x");
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("100,000 parts: %,d bytes of JSON, written and read in %d ms%n", json.length, millis);
        assertThat(read.parts()).hasSize(100_000);
        assertThat(read.parts().get(99_999)).isEqualTo(parts.get(99_999));
        assertThat(read.totalLength()).isEqualTo(original.totalLength());
    }

    /**
     * The sizes docs/manifest-format.md states: 1,000 generations of 100 parts each, all overwrites within
     * the retention period (100 current parts, 99,900 removed ones, 1,000 history lines).
     */
    @Test
    void aThousandOverwritesWithinRetentionStayOneObject() throws IOException {
        List<RemovedPart> removed = new ArrayList<>();
        List<GenerationInfo> history = new ArrayList<>();
        List<ManifestPart> current = new ArrayList<>();
        Instant t = Instant.parse("2026-11-23T00:00:00Z");
        for (int g = 1; g <= 1000; g++) {
            String job = UUID.randomUUID().toString();
            for (int i = 0; i < 100; i++) {
                ManifestPart part = new ManifestPart("d=" + i + "/" + PartNames.partFileName(i, job, g * 100 + i,
                        ".c000.snappy.parquet"), 1_000_000 + i, "9b2cf535f27731c974343645a39853" + (10 + i % 90), job,
                        i, g * 100 + i, t.toEpochMilli(), 10_000L, null, g);
                if (g < 1000) {
                    removed.add(new RemovedPart(part, g + 1, t.plusSeconds(g + 1)));
                } else {
                    current.add(part);
                }
            }
            history.add(new GenerationInfo(g, Manifest.Operation.OVERWRITE, job, t.plusSeconds(g), 100, 100_004_950,
                    1_000_000L, 100, g == 1 ? 0 : 100));
        }
        Manifest original = new Manifest(1, "stork test", JOB, 1000, Manifest.Operation.OVERWRITE, t, t.plusSeconds(1000),
                current, removed, history, 1);
        long start = System.nanoTime();
        byte[] json = encode(original);
        Manifest read = ManifestCodec.read(new ByteArrayInputStream(json), "x");
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("1,000 generations x 100 parts within retention: %,d bytes of JSON, written and read in %d ms%n",
                json.length, millis);
        assertThat(read).isEqualTo(original);
        assertThat(read.partsAt(500)).hasSize(100).allSatisfy(p -> assertThat(p.addedIn()).isEqualTo(500));
        assertThat(json.length).isLessThan(40_000_000);
    }

    @Test
    void unknownFieldsAreSkipped() throws IOException {
        Manifest read = decode("{\"format\":\"stork-manifest\",\"version\":1,\"future\":{\"a\":[1,2]},"
                + "\"writer\":\"w\",\"jobId\":\"j\",\"generation\":1,\"operation\":\"create\","
                + "\"createdAt\":\"2026-01-01T00:00:00Z\",\"committedAt\":\"2026-01-01T00:00:01Z\","
                + "\"parts\":[{\"path\":\"p\",\"length\":1,\"job\":\"j\",\"task\":0,\"attempt\":0,\"new\":[{}]}]}");
        assertThat(read.parts()).extracting(ManifestPart::path).containsExactly("p");
    }

    @Test
    void corruptManifestsFailWithOneLineNamingTheProblem() {
        assertThatThrownBy(() -> decode(""))
                .isInstanceOf(CorruptManifestException.class).hasMessageContaining("test/_SUCCESS");
        assertThatThrownBy(() -> decode("{\"format\":\"stork-manifest\",\"version\":1,\"parts\":[")).hasMessageStartingWith(
                "corrupt Stork manifest test/_SUCCESS: not valid JSON");
        assertThatThrownBy(() -> decode("{\"format\":\"other\"}")).hasMessageContaining("\"format\" is not");
        assertThatThrownBy(() -> decode("{\"format\":\"stork-manifest\",\"version\":3}"))
                .hasMessageContaining("newer than this reader understands");
        assertThatThrownBy(() -> decode("{\"format\":\"stork-manifest\",\"version\":1,\"writer\":\"w\",\"jobId\":\"j\","
                + "\"generation\":1,\"operation\":\"create\",\"createdAt\":\"2026-01-01T00:00:00Z\","
                + "\"committedAt\":\"2026-01-01T00:00:01Z\",\"parts\":[{\"path\":\"p\",\"length\":-1,\"job\":\"j\","
                + "\"task\":0,\"attempt\":0}]}"))
                .isInstanceOf(CorruptManifestException.class).hasMessageContaining("negative length");
        assertThatThrownBy(() -> decode("{\"format\":\"stork-manifest\",\"version\":1,\"parts\":[]}"))
                .hasMessageContaining("writer is missing");
    }

    @Test
    void foreignSuccessMarkersAreNotStorkManifests() throws IOException {
        for (String foreign : new String[] {"", "{\"name\":\"org.apache.hadoop.fs.s3a.commit\",\"filenames\":[]}",
                "{\"format\":\"other\",\"version\":9}"}) {
            assertThat(ManifestCodec.readIfStork(new ByteArrayInputStream(foreign.getBytes(StandardCharsets.UTF_8)), "x"))
                    .as(foreign).isEmpty();
        }
        // Not JSON, or JSON that is no object: a damaged _SUCCESS, reported as such (never "no manifest").
        for (String corrupt : new String[] {"not json at all", "[1,2]", "\u0000\u0001garbage",
                "{\"format\":\"stork-manifest\",\"version\":1,\"parts\":[}"}) {
            assertThatThrownBy(() -> ManifestCodec.readIfStork(new ByteArrayInputStream(
                    corrupt.getBytes(StandardCharsets.UTF_8)), "stork://b/t/_SUCCESS"))
                    .as(corrupt).isInstanceOf(CorruptManifestException.class)
                    .hasMessageStartingWith("corrupt Stork manifest stork://b/t/_SUCCESS: ");
        }
    }

    @Test
    void historyAndRemovedPartsRoundTrip() throws IOException {
        ManifestPart kept = new ManifestPart("a", 10, "e1", JOB, 0, 0, 1L, 5L, null, 1);
        ManifestPart added = new ManifestPart("b", 20, "e2", JOB, 1, 0, 2L, 7L, null, 3);
        RemovedPart gone = new RemovedPart(new ManifestPart("c", 30, "e3", "other", 0, 1, 3L, null, null, 2), 3,
                Instant.parse("2026-11-23T05:01:02Z"));
        GenerationInfo info = new GenerationInfo(3, Manifest.Operation.OVERWRITE, JOB,
                Instant.parse("2026-11-23T05:01:02Z"), 2, 30, 12L, 1, 1);
        Manifest original = new Manifest(1, "stork test", JOB, 3, Manifest.Operation.OVERWRITE,
                Instant.parse("2026-11-23T05:00:00Z"), Instant.parse("2026-11-23T05:01:02Z"), List.of(kept, added),
                List.of(gone), List.of(info), 2);
        Manifest read = decode(new String(encode(original), StandardCharsets.UTF_8));
        assertThat(read).isEqualTo(original);
        assertThat(read.partsAt(2)).extracting(ManifestPart::path).containsExactlyInAnyOrder("a", "c");
        assertThat(read.partsAt(3)).extracting(ManifestPart::path).containsExactly("a", "b");
        assertThatThrownBy(() -> read.partsAt(1)).hasMessageContaining("generations 2 to 3");
        Changes changes = Changes.between(read, 2, 3);
        assertThat(changes.added()).extracting(ManifestPart::path).containsExactly("b");
        assertThat(changes.removed()).extracting(r -> r.part().path()).containsExactly("c");
    }

    @Test
    void attemptNamesAreUniqueAndRecognised() {
        String job = UUID.randomUUID().toString();
        String name = PartNames.partFileName(3, job, 17, ".c000.snappy.parquet");
        assertThat(name).isEqualTo("part-00003-" + job + "-attempt-17.c000.snappy.parquet");
        assertThat(PartNames.isAttemptNamed(name)).isTrue();
        assertThat(PartNames.jobIdOf(name)).contains(job);
        assertThat(PartNames.isAttemptNamed("part-00003-" + job + ".c000.snappy.parquet")).isFalse();
        assertThat(PartNames.isAttemptNamed("part-00000")).isFalse();
        assertThat(PartNames.partFileName(3, job, 18, ".csv")).isNotEqualTo(PartNames.partFileName(3, job, 17, ".csv"));
    }

    @Test
    void classicTemporaryAttemptFilesMapToAttemptNamedFinalKeys() {
        String attempt = "attempt_20261123061200_0003_r_000003_1";
        assertThat(PartNames.finalKeyOfAttemptFile("out/_temporary/0/_temporary/" + attempt + "/part-r-00003.gz"))
                .contains("out/part-r-00003-" + attempt + ".gz");
        assertThat(PartNames.finalKeyOfAttemptFile("a/b/_temporary/1/_temporary/" + attempt + "/k=1/part-00000"))
                .contains("a/b/k=1/part-00000-" + attempt);
        assertThat(PartNames.finalKeyOfAttemptFile("_temporary/0/_temporary/" + attempt + "/part-m-00000"))
                .contains("part-m-00000-" + attempt);
        assertThat(PartNames.attemptDirectoryOf("out/_temporary/0/_temporary/" + attempt + "/part-r-00003.gz"))
                .contains("out/_temporary/0/_temporary/" + attempt);
        assertThat(PartNames.finalKeyOfAttemptFile("out/_temporary/0/task_20261123061200_0003_r_000003/part"))
                .isEmpty();
        assertThat(PartNames.finalKeyOfAttemptFile("out/part-r-00003")).isEmpty();
        assertThat(PartNames.isAttemptNamed("part-r-00003-" + attempt + ".gz")).isTrue();
        assertThat(PartNames.isAttemptNamed("part-r-00003.gz")).isFalse();
    }
}

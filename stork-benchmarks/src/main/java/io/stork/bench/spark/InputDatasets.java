package io.stork.bench.spark;

import io.stork.store.BucketNotFoundException;
import io.stork.store.ByteRange;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The text datasets every scenario reads: plain objects (no manifest, as data arriving from elsewhere
 * would be) of words from a fixed vocabulary, generated from a seed per object, so the large dataset's
 * first objects are the small one's. They are uploaded once per size and kept: a descriptor object records
 * the sizes and line counts, and a later run with the same sizes reuses them.
 */
final class InputDatasets {

    static final String SMALL = "text-small";
    static final String LARGE = "text-large";
    private static final String DESCRIPTOR = "stork-bench-inputs.properties";
    private static final int FORMAT_VERSION = 2;
    private static final String[] VOCABULARY = vocabulary();

    private final ObjectStore store;
    private final String bucket;
    private final BenchmarkSizes sizes;

    InputDatasets(ObjectStore store, String bucket, BenchmarkSizes sizes) {
        this.store = store;
        this.bucket = bucket;
        this.sizes = sizes;
    }

    /** Line counts of the two datasets, uploading them first unless the bucket holds them at these sizes. */
    Properties prepare() throws IOException {
        Properties existing = descriptor();
        if (existing != null && existing.getProperty("sizes", "").equals(sizesKey())) {
            return existing;
        }
        store.createBucket(bucket);
        // Datasets of other sizes may be there: their extra objects would be read as part of these.
        PrefixDeletion.deleteAll(store, bucket, SMALL + "/");
        PrefixDeletion.deleteAll(store, bucket, LARGE + "/");
        long smallLines = 0;
        long largeLines = 0;
        for (int i = 0; i < sizes.largeObjects(); i++) {
            byte[] object = generate(i);
            long lines = countLines(object);
            largeLines += lines;
            store.put(ObjectKey.of(bucket, LARGE + "/" + partName(i)), PutBody.of(object), PutOptions.defaults());
            if (i < sizes.smallObjects()) {
                smallLines += lines;
                store.put(ObjectKey.of(bucket, SMALL + "/" + partName(i)), PutBody.of(object), PutOptions.defaults());
            }
            if ((i + 1) % 10 == 0 || i + 1 == sizes.largeObjects()) {
                System.out.printf("  input datasets: %d/%d objects uploaded%n", i + 1, sizes.largeObjects());
            }
        }
        Properties descriptor = new Properties();
        descriptor.setProperty("sizes", sizesKey());
        descriptor.setProperty(SMALL + ".lines", Long.toString(smallLines));
        descriptor.setProperty(LARGE + ".lines", Long.toString(largeLines));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        descriptor.store(out, "written by io.stork.bench.spark.InputDatasets");
        store.put(ObjectKey.of(bucket, DESCRIPTOR), PutBody.of(out.toByteArray()), PutOptions.defaults());
        return descriptor;
    }

    private Properties descriptor() throws IOException {
        try (ObjectStream in = store.get(ObjectKey.of(bucket, DESCRIPTOR), ByteRange.all())) {
            Properties properties = new Properties();
            properties.load(new StringReader(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            return properties;
        } catch (ObjectNotFoundException | BucketNotFoundException e) {
            return null;
        }
    }

    private String sizesKey() {
        return "v" + FORMAT_VERSION + " " + sizes.objectBytes() + " " + sizes.smallObjects() + " " + sizes.largeObjects();
    }

    private static String partName(int i) {
        return String.format("part-%05d.txt", i);
    }

    /** One object of exactly {@code objectBytes}: lines of about 100 characters, each ending in a newline. */
    private byte[] generate(int index) {
        SplittableRandom random = new SplittableRandom(0x5EED_0000L + index);
        int size = (int) sizes.objectBytes();
        byte[] bytes = new byte[size];
        int at = 0;
        StringBuilder line = new StringBuilder(128);
        while (at < size) {
            line.setLength(0);
            while (line.length() < 90) {
                line.append(line.length() == 0 ? "" : " ").append(VOCABULARY[random.nextInt(VOCABULARY.length)]);
            }
            int room = size - at;
            if (line.length() + 1 > room) {
                // The object's last line: cut to fit, so that every object has exactly the same size.
                line.setLength(Math.max(0, room - 1));
            }
            byte[] encoded = (line + "\n").getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(encoded, 0, bytes, at, encoded.length);
            at += encoded.length;
        }
        return bytes;
    }

    private static long countLines(byte[] object) {
        long lines = 0;
        for (byte b : object) {
            if (b == '\n') {
                lines++;
            }
        }
        return lines;
    }

    /** 1,000 pronounceable words; a word's frequency is uniform, as in HiBench's random text. */
    private static String[] vocabulary() {
        String[] consonants = {"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z"};
        String[] vowels = {"a", "e", "i", "o", "u"};
        String[] words = new String[1000];
        SplittableRandom random = new SplittableRandom(42);
        Set<String> seen = new HashSet<>();
        int n = 0;
        while (n < words.length) {
            StringBuilder word = new StringBuilder();
            int syllables = 1 + random.nextInt(3);
            for (int s = 0; s < syllables; s++) {
                word.append(consonants[random.nextInt(consonants.length)]).append(vowels[random.nextInt(vowels.length)]);
            }
            if (seen.add(word.toString())) {
                words[n++] = word.toString();
            }
        }
        return words;
    }
}

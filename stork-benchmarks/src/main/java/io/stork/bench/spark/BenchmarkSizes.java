package io.stork.bench.spark;

/**
 * How big the benchmark's datasets are. Every input and output is cut into objects of {@code objectBytes}
 * (the paper used 128 MB; the default here fits a 2-core machine).
 *
 * @param objectBytes size of each input object and the target size of each output object
 * @param smallObjects objects in the small text dataset (Read-only, Copy, Wordcount) and in Teragen's output
 * @param largeFactor how many times larger the second Read-only dataset is
 * @param salesRows rows of the star schema's fact table
 */
public record BenchmarkSizes(long objectBytes, int smallObjects, int largeFactor, long salesRows) {

    public static final int TERAGEN_RECORD_BYTES = 100;

    public BenchmarkSizes {
        if (objectBytes < 1024 || smallObjects < 1 || largeFactor < 1 || salesRows < 1000) {
            throw new IllegalArgumentException("benchmark sizes too small: object " + objectBytes + " B, "
                    + smallObjects + " objects, ×" + largeFactor + ", " + salesRows + " sales rows");
        }
    }

    public int largeObjects() {
        return smallObjects * largeFactor;
    }

    public long teragenRecords() {
        return objectBytes * smallObjects / TERAGEN_RECORD_BYTES;
    }

    /** Parquet objects of the fact table: about one per 250,000 rows, at least 2 so that tasks run in parallel. */
    public int salesObjects() {
        return (int) Math.max(2, salesRows / 250_000);
    }

    public String describe() {
        return String.format("objects of %s; small text dataset %d objects (%s), large %d objects (%s); "
                        + "Teragen %,d records of %d B; star schema %,d sales rows",
                Bytes.format(objectBytes), smallObjects, Bytes.format(objectBytes * smallObjects), largeObjects(),
                Bytes.format(objectBytes * largeObjects()), teragenRecords(), TERAGEN_RECORD_BYTES, salesRows);
    }
}

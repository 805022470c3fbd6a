package io.stork.hadoop.io;

/**
 * An optional ability, found with {@link java.util.ServiceLoader}: how many bytes at the end of a file
 * its reader needs first, judged by the writer from the last bytes it wrote (a format's footer and the
 * indexes written just before it). The answer goes into the manifest as the part's {@code tail}, so that a
 * reader fetches exactly that in one GET. Implementations live with the format's own library (the Spark
 * module measures Parquet's page indexes with Parquet's footer reader); without one, a Parquet footer is
 * measured alone. Called once per file, at close; must be cheap and must not throw.
 */
public interface TailMeasure {

    /** Whether this measure looks at a file of this name (the last path element); only those keep its bytes. */
    default boolean appliesTo(String fileName) {
        return true;
    }

    /** The most final bytes this measure looks at. */
    int bytesWanted();

    /**
     * The tail a reader of a file of {@code length} bytes needs first, or 0 if this measure does not know
     * (another format, or the footer is not within {@code end}).
     *
     * @param end the file's last {@code count} bytes, from {@code offset}
     */
    long tail(long length, byte[] end, int offset, int count);
}

package io.stork.hadoop.io;

import java.util.List;
import java.util.ServiceLoader;

/**
 * The last bytes of a file being written, kept in a ring as they pass, and what they say about the tail a
 * reader needs first: the first {@link TailMeasure} that knows, else a Parquet footer (its length and
 * magic, the last 8 bytes), else 0. Memory: the most any measure wants (8 bytes without one).
 */
final class WrittenTail {

    private static final int MAX_KEPT = 1 << 20;

    private final List<TailMeasure> measures;
    private final byte[] ring;
    private long written;

    /** @param fileName the file's name: only the measures that apply to it are asked, and keep bytes */
    WrittenTail(List<TailMeasure> measures, String fileName) {
        List<TailMeasure> applying = new java.util.ArrayList<>();
        int keep = 8;
        for (TailMeasure m : measures) {
            if (m.appliesTo(fileName)) {
                applying.add(m);
                keep = Math.max(keep, Math.min(MAX_KEPT, m.bytesWanted()));
            }
        }
        this.measures = List.copyOf(applying);
        this.ring = new byte[keep];
    }

    /** The measures on the class path of {@code loader}. */
    static List<TailMeasure> load(ClassLoader loader) {
        List<TailMeasure> found = new java.util.ArrayList<>();
        java.util.Iterator<TailMeasure> it = ServiceLoader.load(TailMeasure.class, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (java.util.ServiceConfigurationError | LinkageError e) {
                // A measure whose format library is not on this class path (the Parquet one outside Spark):
                // its files get the plain footer measure.
            }
        }
        return List.copyOf(found);
    }

    void write(int b) {
        ring[(int) (written++ % ring.length)] = (byte) b;
    }

    void write(byte[] buffer, int offset, int count) {
        if (count >= ring.length) {
            // Only the last ring's worth matters; place it where the ring would have it.
            int start = offset + count - ring.length;
            written += count - ring.length;
            count = ring.length;
            offset = start;
        }
        int at = (int) (written % ring.length);
        int first = Math.min(count, ring.length - at);
        System.arraycopy(buffer, offset, ring, at, first);
        System.arraycopy(buffer, offset + first, ring, 0, count - first);
        written += count;
    }

    long written() {
        return written;
    }

    /** The tail a reader needs first; 0 when unknown. */
    int tail() {
        int held = (int) Math.min(written, ring.length);
        byte[] end = new byte[held];
        int at = (int) (written % ring.length);
        if (written >= ring.length) {
            System.arraycopy(ring, at, end, 0, ring.length - at);
            System.arraycopy(ring, 0, end, ring.length - at, at);
        } else {
            System.arraycopy(ring, 0, end, 0, held);
        }
        for (TailMeasure m : measures) {
            long tail;
            try {
                tail = m.tail(written, end, 0, held);
            } catch (RuntimeException | LinkageError e) {
                tail = 0; // a measure's failure costs the reader a GET, never the write
            }
            if (tail > 0 && tail <= written && tail <= Integer.MAX_VALUE) {
                return (int) tail;
            }
        }
        return parquetFooter(end, held);
    }

    /** A Parquet file ends with its footer's length (4 bytes, little-endian) and "PAR1": footer + 8, else 0. */
    private int parquetFooter(byte[] end, int held) {
        if (written < 12 || held < 8) {
            return 0;
        }
        int i = held - 8;
        if (end[i + 4] != 'P' || end[i + 5] != 'A' || end[i + 6] != 'R' || end[i + 7] != '1') {
            return 0;
        }
        long footer = (end[i] & 0xFFL) | (end[i + 1] & 0xFFL) << 8 | (end[i + 2] & 0xFFL) << 16
                | (end[i + 3] & 0xFFL) << 24;
        return footer + 8 <= written && footer + 8 <= Integer.MAX_VALUE ? (int) (footer + 8) : 0;
    }
}

package io.stork.spark.parquet;

import io.stork.hadoop.io.TailMeasure;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * The tail a Parquet reader needs first: the footer, and the page indexes (column and offset indexes) and
 * bloom filters Parquet writes just before it, which a filtered read looks at next. Measured at close from
 * the footer the writer has just written, read with Parquet's own footer reader; a reader then fetches all
 * of it in one GET, exactly. Footers larger than {@link #bytesWanted()} are left to the plain footer measure.
 */
public final class ParquetTailMeasure implements TailMeasure {

    /** Footers up to this size are measured (they are kept in memory while the file is written). */
    static final int FOOTER_LIMIT = 256 * 1024;
    /** Indexes beyond this are not fetched ahead: the reader fetches them as it needs them. */
    static final long INDEX_LIMIT = 4L * 1024 * 1024;

    /** Fails (and the service loader passes this measure over) where Parquet is not on the class path. */
    public ParquetTailMeasure() {
        Util.class.getName();
    }

    /** Parquet files as Spark and Hadoop name them (other names keep the plain footer measure). */
    @Override
    public boolean appliesTo(String fileName) {
        return fileName.endsWith(".parquet");
    }

    @Override
    public int bytesWanted() {
        return FOOTER_LIMIT + 8;
    }

    @Override
    public long tail(long length, byte[] end, int offset, int count) {
        if (count < 12 || end[offset + count - 4] != 'P' || end[offset + count - 3] != 'A'
                || end[offset + count - 2] != 'R' || end[offset + count - 1] != '1') {
            return 0;
        }
        int at = offset + count - 8;
        long footer = (end[at] & 0xFFL) | (end[at + 1] & 0xFFL) << 8 | (end[at + 2] & 0xFFL) << 16
                | (end[at + 3] & 0xFFL) << 24;
        if (footer + 8 > count || footer + 8 > length) {
            return 0;
        }
        long footerStart = length - 8 - footer;
        FileMetaData metadata;
        try {
            metadata = Util.readFileMetaData(new ByteArrayInputStream(end, (int) (at - footer), (int) footer));
        } catch (IOException | RuntimeException e) {
            return 0; // not a footer Parquet can read: the plain footer measure answers
        }
        long first = footerStart;
        if (metadata.getRow_groups() != null) {
            for (RowGroup group : metadata.getRow_groups()) {
                for (ColumnChunk chunk : group.getColumns()) {
                    first = Math.min(first, offset(chunk.isSetColumn_index_offset(), chunk.getColumn_index_offset(), footerStart));
                    first = Math.min(first, offset(chunk.isSetOffset_index_offset(), chunk.getOffset_index_offset(), footerStart));
                    if (chunk.getMeta_data() != null) {
                        first = Math.min(first, offset(chunk.getMeta_data().isSetBloom_filter_offset(),
                                chunk.getMeta_data().getBloom_filter_offset(), footerStart));
                    }
                }
            }
        }
        return footerStart - first > INDEX_LIMIT ? footer + 8 : length - first;
    }

    /** An index's offset when it is set and lies between the data and the footer; else the footer's. */
    private static long offset(boolean set, long value, long footerStart) {
        return set && value >= 4 && value < footerStart ? value : footerStart;
    }
}

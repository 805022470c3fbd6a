package io.stork.spark.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measured tail is where Parquet's own reader finds the first page index, through to the end. */
class ParquetTailMeasureTest {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void theTailStartsAtTheFirstPageIndexParquetWrote() throws Exception {
        MessageType schema = MessageTypeParser.parseMessageType(
                "message row { required int64 id; optional binary name (UTF8); required double x; }");
        Path file = new Path(dir.resolve("data.parquet").toUri());
        Configuration conf = new Configuration();
        SimpleGroupFactory rows = new SimpleGroupFactory(schema);
        try (ParquetWriter<org.apache.parquet.example.data.Group> writer = ExampleParquetWriter.builder(file)
                .withConf(conf).withType(schema).withRowGroupSize(64 * 1024).withPageSize(4 * 1024).build()) {
            for (long i = 0; i < 40_000; i++) {
                org.apache.parquet.example.data.Group row = rows.newGroup().append("id", i).append("x", i * 0.5);
                if (i % 3 != 0) {
                    row.append("name", "name-" + i);
                }
                writer.write(row);
            }
        }
        byte[] bytes = Files.readAllBytes(dir.resolve("data.parquet"));
        long firstIndex = Long.MAX_VALUE;
        int groups;
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
            groups = reader.getFooter().getBlocks().size();
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData column : block.getColumns()) {
                    firstIndex = Math.min(firstIndex, column.getColumnIndexReference().getOffset());
                    firstIndex = Math.min(firstIndex, column.getOffsetIndexReference().getOffset());
                }
            }
        }
        assertThat(groups).isGreaterThan(1);
        ParquetTailMeasure measure = new ParquetTailMeasure();
        int held = Math.min(bytes.length, measure.bytesWanted());
        byte[] end = Arrays.copyOfRange(bytes, bytes.length - held, bytes.length);
        long tail = measure.tail(bytes.length, end, 0, held);
        int footer = (end[held - 8] & 0xFF) | (end[held - 7] & 0xFF) << 8 | (end[held - 6] & 0xFF) << 16
                | (end[held - 5] & 0xFF) << 24;
        assertThat(tail).isEqualTo(bytes.length - firstIndex).isGreaterThan(footer + 8L);

        // Not all of the footer held, another format, a footer Parquet cannot read: no answer.
        assertThat(measure.tail(bytes.length, end, held - footer, footer)).isZero();
        assertThat(measure.tail(1000, new byte[1000], 0, 1000)).isZero();
        byte[] garbled = end.clone();
        Arrays.fill(garbled, held - 8 - footer, held - 8, (byte) 0x7f);
        assertThat(measure.tail(bytes.length, garbled, 0, held)).isZero();
    }
}

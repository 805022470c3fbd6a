package io.stork.hadoop.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WrittenTailTest {

    /** A measure that answers how many final bytes it was shown, after checking they are the file's. */
    private static final class Echo implements TailMeasure {
        final int wanted;
        byte[] expected;

        Echo(int wanted) {
            this.wanted = wanted;
        }

        @Override
        public int bytesWanted() {
            return wanted;
        }

        @Override
        public long tail(long length, byte[] end, int offset, int count) {
            assertThat(length).isEqualTo(expected.length);
            assertThat(Arrays.copyOfRange(end, offset, offset + count))
                    .isEqualTo(Arrays.copyOfRange(expected, expected.length - count, expected.length));
            return count;
        }
    }

    @Test
    void theMeasureSeesTheLastBytesWrittenWhateverTheWrites() {
        Random r = new Random(3);
        for (int round = 0; round < 200; round++) {
            Echo echo = new Echo(1 + r.nextInt(100));
            byte[] data = new byte[r.nextInt(500)];
            r.nextBytes(data);
            echo.expected = data;
            WrittenTail tail = new WrittenTail(List.of(echo), "part-0.parquet");
            for (int at = 0; at < data.length; ) {
                int n = Math.min(data.length - at, r.nextInt(3) == 0 ? 1 : r.nextInt(250));
                if (n == 1 && r.nextBoolean()) {
                    tail.write(data[at]);
                } else {
                    byte[] padded = new byte[n + 10];
                    System.arraycopy(data, at, padded, 5, n);
                    tail.write(padded, 5, n);
                }
                at += n;
            }
            assertThat(tail.written()).isEqualTo(data.length);
            int expected = Math.min(data.length, Math.max(8, echo.wanted));
            assertThat(tail.tail()).as("round %d", round).isEqualTo(expected);
        }
    }

    @Test
    void withoutAnAnswerAParquetFooterIsMeasuredAlone() {
        byte[] file = new byte[1000];
        file[992] = 100; // footer length 100, little-endian
        System.arraycopy("PAR1".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, file, 996, 4);
        TailMeasure failing = new TailMeasure() {
            @Override
            public int bytesWanted() {
                return 64;
            }

            @Override
            public long tail(long length, byte[] end, int offset, int count) {
                throw new IllegalStateException("broken measure");
            }
        };
        TailMeasure tooLong = new TailMeasure() {
            @Override
            public int bytesWanted() {
                return 8;
            }

            @Override
            public long tail(long length, byte[] end, int offset, int count) {
                return length + 1;
            }
        };
        WrittenTail tail = new WrittenTail(List.of(failing, tooLong), "part-0.parquet");
        tail.write(file, 0, file.length);
        assertThat(tail.tail()).isEqualTo(108);

        TailMeasure elsewhere = new TailMeasure() {
            @Override
            public boolean appliesTo(String fileName) {
                return fileName.endsWith(".orc");
            }

            @Override
            public int bytesWanted() {
                return 1000;
            }

            @Override
            public long tail(long length, byte[] end, int offset, int count) {
                return 500;
            }
        };
        WrittenTail notAsked = new WrittenTail(List.of(elsewhere), "part-0.parquet");
        notAsked.write(file, 0, file.length);
        assertThat(notAsked.tail()).as("a measure for other names is not asked").isEqualTo(108);

        WrittenTail notParquet = new WrittenTail(List.of(), "notes.txt");
        notParquet.write(new byte[1000], 0, 1000);
        assertThat(notParquet.tail()).isZero();
    }
}

package io.stork.hadoop.namespace;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyPathsTest {

    private final KeyPaths paths = new KeyPaths("bucket-1", 64 << 20);

    @ParameterizedTest
    @ValueSource(strings = {"t/part-00000-4f1e-c000.snappy.parquet", "t/year=2024/m=1/part-1.csv", "a", "dir/",
            "with space/x", "per%cent", "a//b", "./x", "a/./b", "a/../b", "ünï/cödé", "colon:x/y", "q?x#y", "t@v3/p"})
    void theQuickPathIsThePathHadoopMakes(String key) {
        String trimmed = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
        Path expected = new Path(KeyPaths.SCHEME, "bucket-1", "/" + trimmed);
        Path made = paths.pathOf(key);
        assertThat(made).isEqualTo(expected);
        assertThat(made.toUri()).isEqualTo(expected.toUri());
        assertThat(made.toString()).isEqualTo(expected.toString());
        assertThat(KeyPaths.keyOf(made)).isEqualTo(KeyPaths.keyOf(expected));
    }
}

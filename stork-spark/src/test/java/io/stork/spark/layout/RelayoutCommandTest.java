package io.stork.spark.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelayoutCommandTest {

    private static RelayoutCommand.Arguments parse(String line) {
        return RelayoutCommand.parse(line.split(" "));
    }

    @Test
    void aKdTreeByBucketsAndAGridByTargetSize() {
        RelayoutCommand.Arguments a = parse("stork://b/t --kdtree date,lat,lon --buckets 64 --no-history "
                + "--option header=true --sample-rows 5000");
        assertThat(a.dataset()).isEqualTo("stork://b/t");
        assertThat(a.columns()).containsExactly("date", "lat", "lon");
        assertThat(a.grid()).isFalse();
        assertThat(a.buckets()).isEqualTo(64);
        assertThat(a.history()).isFalse();
        assertThat(a.options()).isEqualTo(Map.of("header", "true"));
        assertThat(a.spec().buckets()).isEqualTo(64);

        RelayoutCommand.Arguments g = parse("--grid lat,lon --precision 2 --target-object-size 128m stork://b/t");
        assertThat(g.grid()).isTrue();
        assertThat(g.precision()).isEqualTo(2);
        assertThat(g.targetBytes()).isEqualTo(128L << 20);
        assertThat(g.columns()).isEqualTo(List.of("lat", "lon"));
    }

    @Test
    void mistakesAreNamedBeforeAnyStoreIsTouched() {
        assertThatThrownBy(() -> parse("stork://b/t --kdtree lat --bukets 4")).hasMessage("unknown option --bukets");
        assertThatThrownBy(() -> parse("stork://b/t --kdtree lat")).hasMessage("give one of --buckets and --target-object-size");
        assertThatThrownBy(() -> parse("stork://b/t --kdtree lat --buckets 4 --target-object-size 1g"))
                .hasMessage("give one of --buckets and --target-object-size");
        assertThatThrownBy(() -> parse("stork://b/t --buckets 4")).hasMessageContaining("--kdtree <columns>");
        assertThatThrownBy(() -> parse("s3a://b/t --kdtree lat --buckets 4")).hasMessageContaining("stork:// dataset");
        assertThatThrownBy(() -> parse("stork://b/t --grid lat --buckets 4")).hasMessageContaining("two columns");
        assertThatThrownBy(() -> parse("stork://b/t --kdtree lat --buckets 0")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> parse("stork://b/t --kdtree lat --target-object-size 12x"))
                .hasMessageContaining("128m");
        assertThatThrownBy(() -> parse("stork://b/t --kdtree lat --buckets")).hasMessage("--buckets needs a value");
    }
}

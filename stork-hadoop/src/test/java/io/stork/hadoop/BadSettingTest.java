package io.stork.hadoop;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/** The file system reads its keys through the one settings reader: a bad value fails naming its key. */
class BadSettingTest {

    private static void refused(String key, String value, String message) {
        Configuration conf = new Configuration(false);
        conf.set("fs.stork.impl", StorkFileSystem.class.getName());
        conf.setBoolean("fs.stork.impl.disable.cache", true);
        conf.set("fs.stork.api", "memory");
        conf.set(key, value);
        assertThatThrownBy(() -> FileSystem.newInstance(URI.create("stork://bad-setting/"), conf).close())
                .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @Test
    void eachKindOfValueFailsWithOneLineNamingTheKey() {
        refused("fs.stork.bucket.bad-setting.status.cache.ttl", "5",
                "fs.stork.bucket.bad-setting.status.cache.ttl: '5' is not a duration with a unit (100ms, 10s, 5m, 24h, 7d)");
        refused("fs.stork.status.cache.size", "lots", "fs.stork.status.cache.size: 'lots' is not a whole number");
        refused("fs.stork.block.size", "128 megs",
                "fs.stork.block.size: '128 megs' is not a size (bytes, or a number and a suffix: 16K, 32M, 10G)");
        refused("fs.stork.read.raw", "yes", "fs.stork.read.raw: 'yes' is not true or false");
        refused("fs.stork.retention", "7", "fs.stork.retention: '7' is not a duration with a unit (100ms, 10s, 5m, 24h, 7d)");
        refused("fs.stork.manifest.inline.parts", "0", "fs.stork.manifest.inline.parts: '0' is not a whole number of at least 1");
    }
}

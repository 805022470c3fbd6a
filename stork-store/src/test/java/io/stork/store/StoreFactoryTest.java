package io.stork.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stork.store.memory.InMemoryObjectStore;
import io.stork.store.memory.MemoryStoreProvider;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Backends are found through their service entries and chosen by their API's id; nothing else names them. */
class StoreFactoryTest {

    @Test
    void theServiceLoadedProviderIsChosenByItsId() throws IOException {
        assertThat(StoreFactory.providers()).containsKey("memory");
        StoreProvider memory = StoreFactory.provider("memory");
        assertThat(memory).isInstanceOf(MemoryStoreProvider.class);
        assertThat(memory.api()).isEqualTo(StoreApi.MEMORY);

        StoreConfig config = memory.config(new MapSettings("factory-test", Map.of()));
        try (ObjectStore store = StoreFactory.open(config, RetryPolicy.DEFAULT)) {
            assertThat(store.description().api()).isEqualTo(StoreApi.MEMORY);
            store.createBucket("factory-test");
            store.put(ObjectKey.of("factory-test", "k"), PutBody.of(new byte[] {1}), PutOptions.defaults());
            assertThat(store.head(ObjectKey.of("factory-test", "k")).length()).isEqualTo(1);
        }
    }

    @Test
    void anUnknownIdIsOneLineListingTheKnownOnes() {
        assertThatThrownBy(() -> StoreFactory.provider("ftp"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown store API 'ftp': the class path has memory")
                .hasMessageNotContaining("\n");
    }

    /** A backend is its classes and one service entry: here a class loader with an entry of its own. */
    @Test
    void aBackendIsAddedByItsServiceEntryAlone(@TempDir Path dir) throws IOException {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(StoreProvider.class.getName()), TestProvider.class.getName() + "\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Map<String, StoreProvider> providers = StoreFactory.providers(loader);
            assertThat(providers.keySet()).contains("memory", "test");
            StoreProvider test = StoreFactory.provider("test", providers);
            StoreConfig config = test.config(new MapSettings("b", Map.of("test.size", "3")));
            assertThat(config).isEqualTo(new TestConfig(3));
            assertThatThrownBy(() -> StoreFactory.provider("nfs", providers))
                    .hasMessageStartingWith("unknown store API 'nfs': the class path has memory, test");
        }
    }

    /** A provider found through the service entry the test writes: its id and its one key. */
    public static final class TestProvider implements StoreProvider {

        @Override
        public StoreApi api() {
            return new StoreApi("test", "test API");
        }

        @Override
        public StoreConfig config(StoreSettings settings) {
            return new TestConfig(settings.getInt("test.size", 1));
        }

        @Override
        public ObjectStore open(StoreConfig config, RetryPolicy retry) {
            return new InMemoryObjectStore();
        }
    }

    private record TestConfig(int size) implements StoreConfig {
        @Override
        public StoreApi api() {
            return new StoreApi("test", "test API");
        }
    }

    /** Settings from a map, no per-bucket keys: enough for providers' tests. */
    record MapSettings(String bucket, Map<String, String> values) implements StoreSettings {

        @Override
        public String name(String key) {
            return "test." + key;
        }

        @Override
        public IOException invalid(String message) {
            return new IOException(bucket + ": " + message);
        }

        @Override
        public String get(String key, String defaultValue) {
            String value = values.get(key);
            return value == null || value.isBlank() ? defaultValue : value.trim();
        }

        @Override
        public String required(String key) throws IOException {
            String value = get(key, null);
            if (value == null) {
                throw invalid("missing " + name(key));
            }
            return value;
        }

        @Override
        public String secret(String key) {
            return get(key, null);
        }

        @Override
        public String secret(String key, String deprecatedKey) {
            String value = secret(key);
            return value != null ? value : secret(deprecatedKey);
        }

        @Override
        public java.net.URI uri(String key) throws IOException {
            return java.net.URI.create(required(key));
        }

        @Override
        public boolean getBoolean(String key, boolean defaultValue) {
            String value = get(key, null);
            return value == null ? defaultValue : Boolean.parseBoolean(value);
        }

        @Override
        public int getInt(String key, int defaultValue) {
            String value = get(key, null);
            return value == null ? defaultValue : Integer.parseInt(value);
        }

        @Override
        public long getBytes(String key, long defaultValue) {
            String value = get(key, null);
            return value == null ? defaultValue : Long.parseLong(value);
        }

        @Override
        public Duration getDuration(String key, Duration defaultValue) {
            String value = get(key, null);
            return value == null ? defaultValue : Duration.ofMillis(Long.parseLong(value));
        }
    }
}

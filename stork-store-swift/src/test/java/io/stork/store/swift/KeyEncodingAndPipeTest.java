package io.stork.store.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class KeyEncodingAndPipeTest {

    @Test
    void encodesEveryReservedCharacterButTheSlashInPaths() {
        assertThat(KeyEncoding.path("a b/c+d%e~f=g/ü")).isEqualTo("a%20b/c%2Bd%25e~f%3Dg/%C3%BC");
        assertThat(KeyEncoding.query("a/b c")).isEqualTo("a%2Fb%20c");
        assertThat(KeyEncoding.path("*?&#")).isEqualTo("%2A%3F%26%23");
    }

    @Test
    void pipeDeliversBytesInOrderAndEnds() throws Exception {
        BoundedPipe pipe = new BoundedPipe(4, 2);
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = pipe.input()) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        for (int i = 0; i < 10; i++) {
            pipe.put(new byte[] {(byte) i, (byte) i});
        }
        pipe.finish();
        byte[] bytes = read.get();
        assertThat(bytes).hasSize(20);
        assertThat(bytes[19]).isEqualTo((byte) 9);
    }

    @Test
    void aFailedPipeFailsTheReaderAndUnblocksTheWriter() {
        BoundedPipe pipe = new BoundedPipe(4, 1);
        pipe.fail(new IOException("upload aborted"));
        assertThatThrownBy(() -> pipe.input().read(new byte[4])).hasMessage("upload aborted");
        assertThatThrownBy(() -> {
            pipe.put(new byte[4]);
            pipe.put(new byte[4]);
        }).hasMessage("upload aborted");
    }
}

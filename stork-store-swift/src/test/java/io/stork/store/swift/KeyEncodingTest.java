package io.stork.store.swift;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeyEncodingTest {

    @Test
    void encodesEveryReservedCharacterButTheSlashInPaths() {
        assertThat(KeyEncoding.path("a b/c+d%e~f=g/ü")).isEqualTo("a%20b/c%2Bd%25e~f%3Dg/%C3%BC");
        assertThat(KeyEncoding.query("a/b c")).isEqualTo("a%2Fb%20c");
        assertThat(KeyEncoding.path("*?&#")).isEqualTo("%2A%3F%26%23");
    }
}

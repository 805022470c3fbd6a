package io.stork.manifest.commit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * The claim on a generation, {@code _stork/generation-<n>}: which job took it and when. Stores that can
 * create without overwrite decide between concurrent commits through it; a claim whose manifest never
 * came (its job died) is recognised by its age.
 */
record GenerationClaim(String jobId, Instant claimedAt) {

    byte[] encode() {
        return (jobId + "\n" + claimedAt.toEpochMilli()).getBytes(StandardCharsets.UTF_8);
    }

    /** Parses a claim; claims written before they carried a time count as taken at the epoch (stale). */
    static GenerationClaim decode(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8);
        int newline = text.indexOf('\n');
        if (newline < 0) {
            return new GenerationClaim(text, Instant.EPOCH);
        }
        try {
            return new GenerationClaim(text.substring(0, newline),
                    Instant.ofEpochMilli(Long.parseLong(text.substring(newline + 1).trim())));
        } catch (NumberFormatException e) {
            return new GenerationClaim(text.substring(0, newline), Instant.EPOCH);
        }
    }

    static Optional<GenerationClaim> read(DatasetStorage storage, long generation) throws IOException {
        return storage.readClaim(generation).map(GenerationClaim::decode);
    }
}

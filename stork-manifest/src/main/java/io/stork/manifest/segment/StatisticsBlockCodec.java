package io.stork.manifest.segment;

import java.util.List;

/**
 * Turns the statistics of many parts (each a JSON object, opaque to the manifest) into one columnar block
 * and back. Data skipping provides it (found by the service loader); without one, a segment keeps each
 * part's statistics as JSON. Implementations must be lossless: {@code decode(encode(x))} holds the same
 * statistics as {@code x}.
 */
public interface StatisticsBlockCodec {

    /** One block for the parts' statistics, in order (null: the part has none). */
    byte[] encode(List<String> statsJson);

    /** The parts' statistics as JSON again, in order (null: none). */
    List<String> decode(byte[] block);
}

package io.stork.kafka;

/**
 * Reads a record's key (the model's columns, in the model's order) from its value. Implementations are
 * immutable and keep no per-record state, so one instance serves every producer thread.
 */
interface KeyReader {

    /**
     * The key of a record; {@link IllegalArgumentException} of one line naming the column when the value
     * lacks one or holds one its type cannot take. {@code value} is what the producer was given,
     * {@code valueBytes} what its serializer made of it (null for a null value).
     */
    Object[] key(Object value, byte[] valueBytes);

    /** What the reader expects, for the partitioner's one-line description. */
    String describe();
}

package io.stork.store;

import java.time.Instant;

/** One entry of a listing: an object, or a common prefix rolled up by the delimiter. */
public sealed interface ListEntry permits ListEntry.ListedObject, ListEntry.CommonPrefix {

    /** The key, or the prefix (ending with the delimiter). */
    String name();

    /** An object, with what the listing says of it (no user metadata: listings do not carry it). */
    record ListedObject(String name, long length, String etag, Instant lastModified) implements ListEntry {
    }

    /** Keys sharing this prefix up to and including the delimiter. */
    record CommonPrefix(String name) implements ListEntry {
    }
}

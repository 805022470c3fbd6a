package io.stork.hadoop.io;

import io.stork.hadoop.PartChangedException;
import io.stork.store.ByteRange;
import io.stork.store.ObjectChangedException;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.RangeNotSatisfiableException;
import io.stork.store.ReadCondition;
import java.io.FileNotFoundException;
import java.io.IOException;

/**
 * One version of an object, as a stream reads it: every GET carries the version's ETag as a precondition
 * ({@code If-Match}) once it is known — from the manifest that names the part, or learnt from the first
 * GET — so a replaced object never yields a byte, and its failure says what changed since when.
 */
final class PinnedObject {

    private final ObjectStore store;
    private final ObjectKey key;
    private final String path;
    /** What committed the expected version, for messages ("generation 4 of stork://b/t"), or null. */
    private final String committedIn;
    private volatile String etag;

    PinnedObject(ObjectStore store, ObjectKey key, String path, String knownEtag, String committedIn) {
        this.store = store;
        this.key = key;
        this.path = path;
        this.etag = knownEtag;
        this.committedIn = committedIn;
    }

    /**
     * One GET of {@code range}, conditional on the version; the first one learns it.
     *
     * @param knownLength the length a listing or manifest gave, or {@code Long.MAX_VALUE}: a range past a
     *                    known length's object means the object is shorter now, so it was replaced
     */
    ObjectStream get(ByteRange range, long knownLength) throws IOException {
        String expected = etag;
        ObjectStream opened;
        try {
            opened = store.get(key, range, expected == null ? ReadCondition.NONE : ReadCondition.ifMatch(expected));
        } catch (ObjectChangedException e) {
            throw changed(null, e);
        } catch (ObjectNotFoundException e) {
            FileNotFoundException fnf = new FileNotFoundException(path + ": no such file (" + e.getMessage() + ")");
            fnf.initCause(e);
            throw fnf;
        } catch (RangeNotSatisfiableException e) {
            if (knownLength == Long.MAX_VALUE) {
                throw e;
            }
            throw new PartChangedException(committedIn != null
                    ? "part " + path + " changed since " + committedIn + " was committed: it is shorter than its "
                            + knownLength + " bytes (replaced by another writer; read the dataset again, or restore it)"
                    : path + " changed since it was listed: it is shorter than the " + knownLength + " bytes listed", e);
        }
        String seen = opened.info().etag();
        if (expected == null) {
            etag = seen;
        } else if (seen != null && !expected.equals(seen)) {
            opened.close(); // a store that ignored the precondition
            throw changed(seen, null);
        }
        return opened;
    }

    private IOException changed(String seen, Throwable cause) {
        String now = seen == null ? "" : ": ETag " + seen + " instead of " + etag;
        return new PartChangedException(committedIn != null
                ? "part " + path + " changed since " + committedIn + " was committed" + now
                        + " (replaced by another writer; read the dataset again, or restore it)"
                : path + " changed while it was read" + now, cause);
    }
}

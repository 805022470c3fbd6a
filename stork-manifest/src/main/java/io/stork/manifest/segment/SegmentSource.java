package io.stork.manifest.segment;

import java.io.IOException;

/**
 * Where a manifest reader gets the segments a manifest names: an object of the dataset's
 * {@code _stork/segments/} directory, fetched and decoded ({@link SegmentCodec#decode}), or taken from a
 * cache (segments never change, so a cached one is as good as a fetched one of the same name and length).
 */
@FunctionalInterface
public interface SegmentSource {

    /** The directory of segments, relative to the dataset. */
    String DIRECTORY = "_stork/segments";

    SegmentCodec.Decoded load(String name, long length) throws IOException;

    /** Opens an object of the dataset by its path relative to the dataset (FileNotFoundException: absent). */
    @FunctionalInterface
    interface Opener {
        java.io.InputStream open(String relative) throws IOException;
    }

    /**
     * Segments read from the dataset's directory through {@code opener}; {@code dataset} names it in
     * messages. A missing segment makes the manifest corrupt (it is never read in part).
     */
    static SegmentSource of(Opener opener, String dataset) {
        return (name, length) -> {
            String relative = DIRECTORY + "/" + name;
            String where = dataset + "/" + relative;
            try (java.io.InputStream in = opener.open(relative)) {
                return SegmentCodec.decode(name, length, in, where);
            } catch (java.io.FileNotFoundException e) {
                throw new io.stork.manifest.CorruptManifestException(where, "the segment the manifest names is missing",
                        e);
            }
        };
    }

    /** A source for manifests that must not name any (a reader that cannot fetch them). */
    SegmentSource NONE = (name, length) -> {
        throw new IOException("segment " + name + " named by a manifest read without access to its segments");
    };
}

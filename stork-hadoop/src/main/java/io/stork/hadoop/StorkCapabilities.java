package io.stork.hadoop;

/** Path capabilities Stork declares beyond Hadoop's common ones ({@code FileSystem.hasPathCapability}). */
public final class StorkCapabilities {

    /** A create without overwrite is atomic (If-None-Match on the PUT), so concurrent creators cannot both win. */
    public static final String CONDITIONAL_CREATE = "fs.stork.capability.conditional-create";

    /** Listings of a directory with a Stork manifest return exactly the parts the manifest names. */
    public static final String MANIFEST_LISTING = "fs.stork.capability.manifest-listing";

    private StorkCapabilities() {
    }
}

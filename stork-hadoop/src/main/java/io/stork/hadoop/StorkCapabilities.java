package io.stork.hadoop;

/** Path capabilities Stork declares beyond Hadoop's common ones ({@code FileSystem.hasPathCapability}). */
public final class StorkCapabilities {

    /**
     * A create without overwrite is conditional on the store (If-None-Match on the PUT): a create of an
     * existing object fails. Checked per request: two creates in flight at once may both pass (Swift).
     */
    public static final String CONDITIONAL_CREATE = "fs.stork.capability.conditional-create";

    /** A create without overwrite is atomic: of concurrent creates exactly one succeeds (S3 conditional writes). */
    public static final String ATOMIC_CREATE = "fs.stork.capability.atomic-create";

    /** Listings of a directory with a Stork manifest return exactly the parts the manifest names. */
    public static final String MANIFEST_LISTING = "fs.stork.capability.manifest-listing";

    private StorkCapabilities() {
    }
}

package io.stork.store;

/** The wire APIs Stork speaks. */
public enum StoreApi {
    S3("s3", "S3 API"),
    SWIFT("swift", "Swift API");

    private final String scheme;
    private final String displayName;

    StoreApi(String scheme, String displayName) {
        this.scheme = scheme;
        this.displayName = displayName;
    }

    public String scheme() {
        return scheme;
    }

    public String displayName() {
        return displayName;
    }
}
